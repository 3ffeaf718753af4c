package io.quotaflow.routing;

import io.quotaflow.settings.Routing;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.records.Priority;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class FallbackPolicyTest {

    private static final FallbackPolicy.Condition HEALTHY = new FallbackPolicy.Condition(false, false, false,
            600_000 / 60_000.0, 60 / 60_000.0, 10, 16);

    private static Routing routing(Map<Priority, Duration> maxWait, RouteSettings... routes) {
        Map<String, RouteSettings> byName = new LinkedHashMap<>();
        for (RouteSettings r : routes) {
            byName.put(r.name(), r);
        }
        return new Routing(byName, routes[0].name(), Map.of(), Map.of(), maxWait, Duration.ZERO);
    }

    private static List<FallbackPolicy.Waiting> waiting(Priority p, int n, int tokens) {
        List<FallbackPolicy.Waiting> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new FallbackPolicy.Waiting(p.wireName() + "-" + i, p, tokens, false));
        }
        return out;
    }

    private final RouteSettings primary = Fixtures.route("primary", 128_000, List.of("second", "third"), null);
    private final RouteSettings second = Fixtures.route("second", 8_192, List.of(), null);
    private final RouteSettings third = Fixtures.route("third", 128_000, List.of(), null);

    private FallbackPolicy policy(Routing routing) {
        return new FallbackPolicy(routing, new RouteChooser(routing, BatchSettings.ofDefaults()));
    }

    @Test
    void shouldMoveEveryTicketWhileTheRouteIsHaltedAndProbesWithACallOfItsOwn() {
        Routing routing = routing(Map.of(), primary, second, third);
        List<FallbackPolicy.Waiting> w = waiting(Priority.STANDARD, 5, 100);
        FallbackPolicy.Condition halted = new FallbackPolicy.Condition(true, false, false, 1, 1, 10, 16);

        List<FallbackPolicy.Move> moves = policy(routing).decide(primary, halted, w, r -> true);

        assertThat(moves).hasSize(5).allSatisfy(m -> {
            assertThat(m.to()).isEqualTo("second");
            assertThat(m.reason()).isEqualTo(FallbackReason.HALTED);
        });
        assertThat(moves).extracting(FallbackPolicy.Move::id).contains("standard-0", "standard-4");
    }

    @Test
    void shouldKeepOneTicketAsTheProbeWhenTheHaltIsProbedWithATicketOrTheCircuitIsOpen() {
        Routing routing = routing(Map.of(), primary, second, third);
        List<FallbackPolicy.Waiting> w = waiting(Priority.STANDARD, 5, 100);
        FallbackPolicy.Condition batchHalted = new FallbackPolicy.Condition(true, false, false, 1, 1, 10, 16, false);
        FallbackPolicy.Condition open = new FallbackPolicy.Condition(false, true, false, 1, 1, 10, 16);

        assertThat(policy(routing).decide(primary, batchHalted, w, r -> true)).extracting(FallbackPolicy.Move::id)
                .hasSize(4).doesNotContain("standard-4");
        assertThat(policy(routing).decide(primary, open, w, r -> true)).extracting(FallbackPolicy.Move::id)
                .hasSize(4).doesNotContain("standard-4");
    }

    @Test
    void shouldNameEachReasonOfABlockedRoute() {
        Routing routing = routing(Map.of(), primary, second, third);
        List<FallbackPolicy.Waiting> w = waiting(Priority.BULK, 2, 100);
        assertThat(policy(routing).decide(primary, new FallbackPolicy.Condition(false, true, false, 1, 1, 10, 16), w, r -> true))
                .extracting(FallbackPolicy.Move::reason).containsExactly(FallbackReason.CIRCUIT_OPEN);
        assertThat(policy(routing).decide(primary, new FallbackPolicy.Condition(false, false, true, 1, 1, 10, 16), w, r -> true))
                .extracting(FallbackPolicy.Move::reason).containsExactly(FallbackReason.OUT_FOR_DAY);
        assertThat(FallbackReason.CIRCUIT_OPEN.wire()).isEqualTo("circuit-open");
    }

    @Test
    void shouldSkipAFallbackKnownToBeUnusableOrTooSmallForTheTicket() {
        Routing routing = routing(Map.of(), primary, second, third);
        FallbackPolicy.Condition halted = new FallbackPolicy.Condition(true, false, false, 1, 1, 10, 16);
        List<FallbackPolicy.Waiting> w = new ArrayList<>(waiting(Priority.STANDARD, 1, 100));
        w.add(new FallbackPolicy.Waiting("big", Priority.STANDARD, 20_000, false));
        w.add(new FallbackPolicy.Waiting("probe", Priority.BULK, 10, false));

        List<FallbackPolicy.Move> moves = policy(routing).decide(primary, halted, w, r -> true);
        assertThat(moves).extracting(FallbackPolicy.Move::id, FallbackPolicy.Move::to)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("standard-0", "second"),
                        org.assertj.core.groups.Tuple.tuple("big", "third"), org.assertj.core.groups.Tuple.tuple("probe", "second"));

        assertThat(policy(routing).decide(primary, halted, w, r -> !r.equals("second")))
                .extracting(FallbackPolicy.Move::to).containsOnly("third");
    }

    @Test
    void shouldNeverMoveATicketThatAlreadyFellBack() {
        Routing routing = routing(Map.of(), primary, second, third);
        FallbackPolicy.Condition halted = new FallbackPolicy.Condition(true, false, false, 1, 1, 10, 16);
        List<FallbackPolicy.Waiting> w = List.of(new FallbackPolicy.Waiting("moved", Priority.STANDARD, 10, true),
                new FallbackPolicy.Waiting("fresh", Priority.STANDARD, 10, false));

        assertThat(policy(routing).decide(primary, halted, w, r -> true)).extracting(FallbackPolicy.Move::id).containsExactly("fresh");
    }

    @Test
    void shouldMoveOnlyTheTailBeyondMaxWait() {
        Routing routing = routing(Map.of(Priority.INTERACTIVE, Duration.ofSeconds(30)), primary, second, third);
        // 60 calls a minute of 10 tickets: 1 call a second, so ~300 tickets fit in 30 s
        List<FallbackPolicy.Waiting> w = waiting(Priority.INTERACTIVE, 500, 100);

        List<FallbackPolicy.Move> moves = policy(routing).decide(primary, HEALTHY, w, r -> true);

        assertThat(moves).allSatisfy(m -> assertThat(m.reason()).isEqualTo(FallbackReason.MAX_WAIT));
        assertThat(moves.size()).isBetween(190, 210);
        assertThat(moves).extracting(FallbackPolicy.Move::id).doesNotContain("interactive-0", "interactive-250");
        assertThat(moves).extracting(FallbackPolicy.Move::id).contains("interactive-499");
    }

    @Test
    void shouldCountHigherClassesAheadButMoveOnlyClassesWithAMaxWait() {
        Routing routing = routing(Map.of(Priority.STANDARD, Duration.ofSeconds(10)), primary, second, third);
        List<FallbackPolicy.Waiting> w = new ArrayList<>(waiting(Priority.INTERACTIVE, 150, 100));
        w.addAll(waiting(Priority.STANDARD, 10, 100));

        List<FallbackPolicy.Move> moves = policy(routing).decide(primary, HEALTHY, w, r -> true);

        // 150 interactive tickets ahead take ~15 s: every standard one would wait longer than 10 s
        assertThat(moves).hasSize(10).allSatisfy(m -> assertThat(m.id()).startsWith("standard-"));
    }

    @Test
    void shouldMoveNothingFromARouteWithoutFallbacks() {
        Routing routing = routing(Map.of(Priority.INTERACTIVE, Duration.ofSeconds(1)), third, primary, second);
        assertThat(policy(routing).decide(third, new FallbackPolicy.Condition(true, false, false, 1, 1, 10, 16),
                waiting(Priority.INTERACTIVE, 50, 100), r -> true)).isEmpty();
    }

    @Test
    void shouldLogAtMostOnceAMinutePerPairAndReasonWithTheCount() {
        FallbackLog log = new FallbackLog();
        assertThat(log.moved("a", "b", FallbackReason.HALTED, 1, 0)).contains("1 ticket(s) moved from route a to b (halted)");
        assertThat(log.moved("a", "b", FallbackReason.HALTED, 1, 1_000)).isNull();
        assertThat(log.moved("a", "b", FallbackReason.MAX_WAIT, 1, 2_000)).contains("max-wait");
        assertThat(log.moved("a", "b", FallbackReason.HALTED, 5, 30_000)).isNull();
        assertThat(log.moved("a", "b", FallbackReason.HALTED, 1, 61_000)).contains("7 ticket(s)").contains("in the last 61 s");
    }
}
