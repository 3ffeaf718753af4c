package io.quotaflow.settings;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A scope's dispatch partition depends on the scope and the count alone (docs/design.md, "Scope ownership"). */
class QuotaScopePartitionTest {

    @Test
    void shouldKeepEveryScopesPartitionAcrossVersions() {
        // pinned values (murmur2 of the name, as Kafka's own key partitioning): changing the function moves every
        // scope of every deployment to another owner on upgrade
        assertThat(QuotaScope.dispatchPartition("scope-000000000000", 6)).isZero();
        assertThat(QuotaScope.dispatchPartition("scope-000000000000", 24)).isEqualTo(12);
        assertThat(QuotaScope.dispatchPartition("scope-3f2a9c41d0e7", 6)).isEqualTo(5);
        assertThat(QuotaScope.dispatchPartition("scope-3f2a9c41d0e7", 24)).isEqualTo(17);
        assertThat(QuotaScope.dispatchPartition("scope-aaaaaaaaaaaa", 6)).isEqualTo(3);
        assertThat(QuotaScope.dispatchPartition("scope-0123456789ab", 12)).isEqualTo(1);
        assertThat(QuotaScope.dispatchPartition("anything", 1)).isZero();
    }

    @Test
    void shouldGiveAScopeThePartitionOfItsIdentityNotOfItsPlaceInTheRouteList() {
        ModelSettings p = ModelSettings.of(URI.create("https://api.example.com/v1"), "gpt-4o-mini", Secret.of("sk-p-0123456789"));
        ModelSettings sameKeyOtherSpelling = ModelSettings.of(URI.create("https://API.example.com:443/v1/"), "gpt-4o-mini",
                Secret.of("sk-p-0123456789"));
        assertThat(QuotaScope.dispatchPartition(QuotaScope.of(sameKeyOtherSpelling), 6))
                .isEqualTo(QuotaScope.dispatchPartition(QuotaScope.of(p), 6));
    }

    @Test
    void shouldSpreadScopesOverThePartitions() {
        Map<Integer, Integer> counts = new HashMap<>();
        for (int i = 0; i < 6_000; i++) {
            ModelSettings m = ModelSettings.of(URI.create("https://api.example.com/v1"), "gpt-4o-mini", Secret.of("sk-key-" + i));
            counts.merge(QuotaScope.dispatchPartition(QuotaScope.of(m), 6), 1, Integer::sum);
        }
        assertThat(counts).hasSize(6);
        assertThat(counts.values()).allSatisfy(n -> assertThat(n).isBetween(850, 1_150));
    }

    @Test
    void shouldRefuseACountBelowOne() {
        assertThatThrownBy(() -> QuotaScope.dispatchPartition("scope-x", 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
