package io.quotaflow.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScenarioTest {

    @Test
    void shouldHaveTheFixedCatalogue() {
        List<Scenario> all = Scenario.all(null);
        assertThat(all).extracting(Scenario::name)
                .containsExactly("tpm-binds", "rpm-binds", "full-minute-bucket", "two-instances", "fixed-batches-10");
        assertThat(all).allSatisfy(s -> assertThat(s.tickets()).isEqualTo(Scenario.DEFAULT_TICKETS));

        Scenario a = all.get(0);
        assertThat(List.of(a.rpm(), a.tpm())).containsExactly(500L, 200_000L);
        assertThat(a.simBurstSeconds()).isEqualTo(5);
        assertThat(a.binding()).isEqualTo(Binding.TPM);
        assertThat(a.bindingLimit()).isEqualTo(200_000);

        Scenario b = all.get(1);
        assertThat(List.of(b.rpm(), b.tpm())).containsExactly(60L, 2_000_000L);
        assertThat(b.binding()).isEqualTo(Binding.RPM);
        assertThat(b.bindingLimit()).isEqualTo(60);

        assertThat(all.get(2).simBurstSeconds()).isEqualTo(60);
        assertThat(all.get(3).instances()).isEqualTo(2);
        assertThat(all.get(4).estimateOnly()).isTrue();
        assertThat(all.subList(0, 4)).noneMatch(Scenario::estimateOnly);
    }

    @Test
    void shouldSelectByKeyOrNameInCatalogueOrder() {
        assertThat(Scenario.select("all", 100)).hasSize(5).allSatisfy(s -> assertThat(s.tickets()).isEqualTo(100));
        assertThat(Scenario.select(null, null)).hasSize(5);
        assertThat(Scenario.select("d, a,tpm-binds", null)).extracting(Scenario::key).containsExactly("a", "d");
        assertThat(Scenario.select("RPM-BINDS,e", 7)).extracting(Scenario::name).containsExactly("rpm-binds", "fixed-batches-10");
    }

    @Test
    void shouldSelectChaosOnlyWhenNamed() {
        assertThat(Scenario.select("all", null)).noneMatch(Scenario::isChaos);
        assertThat(Scenario.all(null)).noneMatch(Scenario::isChaos);

        Scenario chaos = Scenario.select("chaos", null).get(0);
        assertThat(chaos.isChaos()).isTrue();
        assertThat(chaos.tickets()).isEqualTo(Scenario.CHAOS_DEFAULT_TICKETS);
        assertThat(List.of(chaos.rpm(), chaos.tpm())).containsExactly(600L, 300_000L);
        assertThat(chaos.instances()).isEqualTo(1);
        assertThat(Scenario.select("CHAOS", 300)).singleElement().satisfies(s -> assertThat(s.tickets()).isEqualTo(300));
        assertThat(Scenario.select("chaos,a", null)).extracting(Scenario::key).containsExactly("a", "chaos");
        assertThat(Scenario.select("all,chaos", 10)).extracting(Scenario::key).containsExactly("a", "b", "c", "d", "e", "chaos");
    }

    @Test
    void shouldRejectAnUnknownScenario() {
        assertThatThrownBy(() -> Scenario.select("a,z", null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"z\"").hasMessageContaining("tpm-binds").hasMessageContaining("chaos or all");
        assertThatThrownBy(() -> Scenario.select(" , ", null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Scenario.tpmBinds(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
