package io.quotaflow.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FailoverVariantTest {

    @Test
    void shouldSelectTheDefaultVariantsWithTheBaselineFirst() {
        List<FailoverVariant> v = FailoverVariant.select(null);
        assertThat(v).extracting(FailoverVariant::name).containsExactly("before", "defaults", "before+restart", "defaults+restart");
        assertThat(v.get(0).kafka()).containsEntry("session.timeout.ms", "45000");
        assertThat(v.get(1).kafka()).isEmpty();
        assertThat(v.get(2).restart()).isTrue();
        assertThat(v.get(0).restart()).isFalse();
    }

    @Test
    void shouldSelectEveryVariantWithAndWithoutRestartForAll() {
        List<FailoverVariant> all = FailoverVariant.select("all,before");
        assertThat(all).hasSize(2 * FailoverVariant.catalogue().size());
        assertThat(all.get(0).name()).isEqualTo("before");
        assertThat(all).filteredOn(FailoverVariant::restart).hasSize(FailoverVariant.catalogue().size());
    }

    @Test
    void shouldTellTheStreamsProtocolAndDynamicMembershipApart() {
        List<FailoverVariant> v = FailoverVariant.select(" streams-6s , dynamic-6s+restart ");
        assertThat(v.get(0).streamsProtocol()).isTrue();
        assertThat(v.get(0).broker()).containsEntry("group.streams.session.timeout.ms", "6000");
        assertThat(v.get(1).streamsProtocol()).isFalse();
        assertThat(v.get(1).instanceId()).isEqualTo("none");
        assertThat(v.get(1).name()).isEqualTo("dynamic-6s+restart");
    }

    @Test
    void shouldRefuseAnUnknownVariantNamingTheKnownOnes() {
        assertThatThrownBy(() -> FailoverVariant.select("static-5s")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("static-5s").hasMessageContaining("static-6s");
        assertThatThrownBy(() -> FailoverVariant.select(",")).isInstanceOf(IllegalArgumentException.class);
    }
}
