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
                .containsExactly("tpm-binds", "rpm-binds", "full-minute-bucket", "two-instances", "fixed-batches-10",
                        "foreign-tokenizer", "nightly-job", "high-tier", "overhead", "interactive-p99", "dlq-replay");
        assertThat(all).extracting(Scenario::key).containsExactly("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k");
        assertThat(all.subList(0, 6)).allSatisfy(s -> assertThat(s.tickets()).isEqualTo(Scenario.DEFAULT_TICKETS));
        assertThat(all.subList(0, 5)).allSatisfy(s -> {
            assertThat(s.shape()).isEqualTo(ScenarioShape.DEFAULT);
            assertThat(s.kind()).isEqualTo(Scenario.Kind.PIPELINE);
            assertThat(s.baselineTicketCount()).isZero();
        });

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
    void shouldShapeTheNewScenariosAsTheIssueSays() {
        Scenario f = Scenario.select("f", null).get(0);
        assertThat(List.of(f.rpm(), f.tpm())).containsExactly(500L, 200_000L);
        assertThat(f.simBurstSeconds()).isEqualTo(5);
        assertThat(f.shape().tokenizer()).isEqualTo(io.quotaflow.simulator.SimTokenizer.CL100K_BASE);
        assertThat(f.shape().contextTokens()).isEqualTo(8_192);
        assertThat(f.shape().hugeShare()).isEqualTo(0.005);
        assertThat(f.baselineTicketCount()).isEqualTo(5_000);
        assertThat(f.shape().describe()).contains("cl100k_base").contains("8,192").contains("0.5 % huge");

        Scenario g = Scenario.select("nightly-job", null).get(0);
        assertThat(g.tickets()).isEqualTo(500);
        assertThat(List.of(g.rpm(), g.tpm())).containsExactly(500L, 30_000L);
        assertThat(g.simBurstSeconds()).isEqualTo(60);
        assertThat(g.shape().startLevel()).isEqualTo(1.0);
        assertThat(g.baselineTicketCount()).isEqualTo(500);

        Scenario h = Scenario.select("h", null).get(0);
        assertThat(List.of(h.rpm(), h.tpm())).containsExactly(10_000L, 2_000_000L);
        assertThat(h.tickets()).isEqualTo(Scenario.HIGH_TIER_TICKETS);
        assertThat(h.baselineTicketCount()).isEqualTo(Scenario.HIGH_TIER_BASELINE_TICKETS);
        // ~2.3 s for ten tickets: 2 000 ms + 2 ms × ~165 completion tokens
        double latency = h.shape().baseLatencyMs() + h.shape().perCompletionTokenMs() * 165;
        assertThat(latency).isBetween(2_200.0, 2_400.0);
        assertThat(h.withTickets(1_000).baselineTicketCount()).isEqualTo(1_000);

        Scenario i = Scenario.select("i", null).get(0);
        assertThat(i.kind()).isEqualTo(Scenario.Kind.OVERHEAD);
        assertThat(i.tickets()).isEqualTo(50_000);
        assertThat(i.shape().baseLatencyMs()).isEqualTo(1);
        assertThat(i.shape().perCompletionTokenMs()).isZero();
        assertThat(i.measuresQuota()).isFalse();
        io.quotaflow.simulator.SimulatorConfig sim = i.shape().applyTo(io.quotaflow.simulator.SimulatorConfig.builder()
                .rpm(i.rpm()).tpm(i.tpm())).build();
        assertThat(sim.baseLatencyMs()).isEqualTo(1);
        assertThat(sim.latencyJitter()).isZero();

        Scenario j = Scenario.select("j", null).get(0);
        assertThat(j.kind()).isEqualTo(Scenario.Kind.INTERACTIVE);
        assertThat(j.tickets()).isEqualTo(5_000);
        assertThat(j.measuresQuota()).isTrue();
        assertThat(BenchmarkRunner.tickets(j.withTickets(20), 42)).hasSize(20 + Scenario.INTERACTIVE_TICKETS);

        Scenario k = Scenario.select("k", null).get(0);
        assertThat(k.kind()).isEqualTo(Scenario.Kind.DLQ_REPLAY);
        assertThat(k.tickets()).isEqualTo(40_000);
        assertThat(k.baselineApplies()).isFalse();
        assertThat(Scenario.select("all", null)).filteredOn(s -> s.baselineTicketCount() > 0).extracting(Scenario::key)
                .containsExactly("f", "g", "h");
        assertThat(Scenario.select("all", null)).filteredOn(Scenario::baselineApplies).extracting(Scenario::key)
                .containsExactly("a", "b", "c", "d", "f", "g", "h");
    }

    @Test
    void shouldGiveTheHugeTicketsOnlyToTheScenarioThatAsksForThem() {
        Scenario f = Scenario.foreignTokenizer(2_000);
        assertThat(BenchmarkRunner.tickets(f, 42)).anyMatch(GeneratedTicket::isHuge);
        assertThat(BenchmarkRunner.tickets(Scenario.tpmBinds(2_000), 42)).isEqualTo(new TicketGenerator(42).generate(2_000));
    }

    @Test
    void shouldSelectByKeyOrNameInCatalogueOrder() {
        assertThat(Scenario.select("all", 100)).hasSize(11).allSatisfy(s -> assertThat(s.tickets()).isEqualTo(100));
        assertThat(Scenario.select(null, null)).hasSize(11);
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
        assertThat(Scenario.select("all,chaos", 10)).extracting(Scenario::key)
                .containsExactly("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "chaos");
    }

    @Test
    void shouldSelectTheSlowProviderScenariosOnlyWhenNamed() {
        assertThat(Scenario.select("all", null)).extracting(Scenario::key).doesNotContain("w", "x", "t");
        Scenario w = Scenario.select("slow-provider", null).get(0);
        assertThat(List.of(w.rpm(), w.tpm())).containsExactly(500L, 200_000L);
        assertThat(w.shape().contextTokens()).isEqualTo(8_192);
        assertThat(w.shape().tokenizer()).isEqualTo(io.quotaflow.simulator.SimTokenizer.CL100K_BASE);
        assertThat(Scenario.select("x", 300)).singleElement().satisfies(s -> {
            assertThat(s.kind()).isEqualTo(Scenario.Kind.INTERACTIVE);
            assertThat(s.tickets()).isEqualTo(300);
            assertThat(s.shape()).isEqualTo(Scenario.SLOW_PROVIDER);
            assertThat(s.interactiveFrom()).as("after the first result").isZero();
        });
        assertThat(Scenario.select("interactive-tail", 300)).singleElement().satisfies(s -> {
            assertThat(s.key()).isEqualTo("t");
            assertThat(s.kind()).isEqualTo(Scenario.Kind.INTERACTIVE);
            assertThat(s.shape()).isEqualTo(Scenario.SLOW_PROVIDER);
            assertThat(s.interactiveFrom()).isEqualTo(0.92);
            assertThat(s.withTickets(10).withShape(Scenario.SLOW_PROVIDER).withBaselineTickets(0).interactiveFrom()).as("kept by the copies")
                    .isEqualTo(0.92);
        });
        assertThatThrownBy(() -> Scenario.select("x", 10).get(0).withBaselineTickets(0).withInteractiveFrom(1.0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRejectAnUnknownScenario() {
        assertThatThrownBy(() -> Scenario.select("a,z", null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"z\"").hasMessageContaining("tpm-binds").hasMessageContaining("chaos, w (slow-provider)")
                .hasMessageContaining("x (slow-provider-interactive), t (interactive-tail) or all");
        assertThatThrownBy(() -> Scenario.select(" , ", null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Scenario.tpmBinds(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Scenario.tpmBinds(10).withBaselineTickets(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
