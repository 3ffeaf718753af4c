package io.quotaflow.deadline;

import io.quotaflow.settings.DeadlineAction;
import io.quotaflow.settings.DeadlineSettings;
import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
import io.quotaflow.status.Eta;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeadlinePolicyTest {

    private static final long NOW = 1_000_000;
    /** 100 tokens a second, one ticket a second, calls of 1 s. */
    private static final Eta.Rates PACE = new Eta.Rates(100, 1, 1_000, true);

    private static List<DeadlinePolicy.Waiting> queue(int n, long deadline, boolean canFallBack) {
        List<DeadlinePolicy.Waiting> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new DeadlinePolicy.Waiting("T-" + i, Priority.STANDARD, 50, NOW, deadline, i, 50L * i, canFallBack));
        }
        return out;
    }

    private static DeadlinePolicy policy(DeadlineAction action) {
        return new DeadlinePolicy(DeadlineSettings.DEFAULTS.withAction(action));
    }

    @Test
    void shouldHandOffOnlyTheTicketsWhoseEtaPassesTheirDeadline() {
        // ticket i starts after i s and is done 1 s later: with 10 s to the deadline and 1 s to spare, 0..8 make it
        List<DeadlinePolicy.Verdict> v = policy(DeadlineAction.HANDOFF).decide(NOW, queue(12, NOW + 10_000, false),
                new DeadlinePolicy.Route(PACE, NOW));

        assertThat(v).extracting(DeadlinePolicy.Verdict::id).containsExactly("T-9", "T-10", "T-11");
        assertThat(v).allSatisfy(x -> {
            assertThat(x.kind()).isEqualTo(DeadlinePolicy.Kind.HAND_OFF);
            assertThat(x.reason()).isEqualTo(HandoffReason.ETA);
            assertThat(x.etaAt()).isGreaterThan(NOW + 9_000);
        });
    }

    @Test
    void shouldCountTicketsThatLeaveAsNoLongerAhead() {
        // T-0 has passed its deadline and leaves: T-1 moves up and makes its own
        List<DeadlinePolicy.Waiting> q = List.of(
                new DeadlinePolicy.Waiting("T-0", Priority.STANDARD, 50, NOW, NOW - 1, 0, 0, false),
                new DeadlinePolicy.Waiting("T-1", Priority.STANDARD, 50, NOW, NOW + 2_500, 1, 50, false));

        List<DeadlinePolicy.Verdict> v = policy(DeadlineAction.HANDOFF).decide(NOW, q, new DeadlinePolicy.Route(PACE, NOW));

        assertThat(v).singleElement().satisfies(x -> {
            assertThat(x.id()).isEqualTo("T-0");
            assertThat(x.reason()).isEqualTo(HandoffReason.PASSED);
        });
    }

    @Test
    void shouldLetEveryTicketWithADeadlineGoWhileTheRouteDoesNotKnowWhenItServes() {
        List<DeadlinePolicy.Verdict> v = policy(DeadlineAction.HANDOFF).decide(NOW, queue(3, NOW + 3_600_000, false),
                new DeadlinePolicy.Route(PACE, Long.MAX_VALUE));

        assertThat(v).hasSize(3).allSatisfy(x -> {
            assertThat(x.reason()).isEqualTo(HandoffReason.UNAVAILABLE);
            assertThat(x.etaAt()).as("not known").isZero();
        });
    }

    @Test
    void shouldWaitForAnOpenCircuitThatReopensInTime() {
        DeadlinePolicy p = policy(DeadlineAction.HANDOFF);
        assertThat(p.decide(NOW, queue(1, NOW + 30_000, false), new DeadlinePolicy.Route(PACE, NOW + 20_000))).isEmpty();
        assertThat(p.decide(NOW, queue(1, NOW + 30_000, false), new DeadlinePolicy.Route(PACE, NOW + 29_500)))
                .singleElement().extracting(DeadlinePolicy.Verdict::reason).isEqualTo(HandoffReason.UNAVAILABLE);
    }

    /** Probe due in 30 s, answered 1 s later; ticket i then starts i s after that and is done 1 s later. */
    private static final long PROBE_AT = NOW + 30_000;

    @Test
    void shouldLetTicketsWithDeadlinesHoursAwayWaitForTheHaltProbe() {
        DeadlinePolicy p = policy(DeadlineAction.HANDOFF);

        assertThat(p.decide(NOW, queue(3, NOW + 3 * 3_600_000, false), DeadlinePolicy.Route.halted(PACE, PROBE_AT)))
                .as("a probe due in 30 s serves them hours early").isEmpty();
        assertThat(p.decide(NOW, queue(3, NOW + 3 * 3_600_000, false), DeadlinePolicy.Route.halted(PACE, NOW)))
                .as("a probe in flight").isEmpty();
    }

    @Test
    void shouldHandOffWhileHaltedOnlyTheTicketsTheProbeCannotServeInTimeWithTheGrace() {
        // T-i is done at PROBE_AT + 1 s (the probe's answer) + i s + 1 s; it stays while that + 1 s + 30 s grace <= deadline
        List<DeadlinePolicy.Verdict> v = policy(DeadlineAction.HANDOFF).decide(NOW, queue(4, NOW + 64_000, false),
                DeadlinePolicy.Route.halted(PACE, PROBE_AT));

        assertThat(v).extracting(DeadlinePolicy.Verdict::id).containsExactly("T-2", "T-3");
        assertThat(v).allSatisfy(x -> {
            assertThat(x.kind()).isEqualTo(DeadlinePolicy.Kind.HAND_OFF);
            assertThat(x.reason()).isEqualTo(HandoffReason.UNAVAILABLE);
        });
        assertThat(v.get(0).etaAt()).as("its ETA if the probe is accepted").isEqualTo(PROBE_AT + 1_000 + 2_000 + 1_000);
    }

    @Test
    void shouldKeepWhileHaltedATicketExactlyAtTheProbePlusTheGraceAndNotOneMillisecondLess() {
        DeadlinePolicy thirty = policy(DeadlineAction.HANDOFF);
        DeadlinePolicy none = new DeadlinePolicy(DeadlineSettings.DEFAULTS.withHaltGrace(Duration.ZERO));
        DeadlinePolicy.Route halted = DeadlinePolicy.Route.halted(PACE, PROBE_AT);
        long doneAt = PROBE_AT + 1_000 + 1_000;

        assertThat(thirty.decide(NOW, queue(1, doneAt + 1_000 + 30_000, false), halted)).isEmpty();
        assertThat(thirty.decide(NOW, queue(1, doneAt + 1_000 + 30_000 - 1, false), halted)).singleElement()
                .extracting(DeadlinePolicy.Verdict::reason).isEqualTo(HandoffReason.UNAVAILABLE);
        assertThat(none.decide(NOW, queue(1, doneAt + 1_000, false), halted)).as("no grace: the margin only").isEmpty();
        assertThat(none.decide(NOW, queue(1, doneAt + 1_000 - 1, false), halted)).hasSize(1);
        assertThat(thirty.decide(NOW, queue(1, doneAt + 1_000, false), new DeadlinePolicy.Route(PACE, PROBE_AT)))
                .as("an open circuit that ends then is no halt: no grace").isEmpty();
    }

    @Test
    void shouldNotOverflowOnResumeTimesAndDeadlinesFarAhead() {
        long latest = Deadlines.LATEST.toEpochMilli();

        assertThat(policy(DeadlineAction.HANDOFF).decide(NOW, queue(1, latest, false),
                DeadlinePolicy.Route.halted(PACE, Long.MAX_VALUE - 10))).singleElement().satisfies(x -> {
                    assertThat(x.reason()).isEqualTo(HandoffReason.UNAVAILABLE);
                    assertThat(x.etaAt()).as("beyond any deadline: not known").isZero();
                });
        assertThat(policy(DeadlineAction.HANDOFF).decide(NOW, queue(1, latest, false), DeadlinePolicy.Route.halted(PACE, PROBE_AT)))
                .as("the latest deadline waits").isEmpty();
        assertThat(DeadlinePolicy.retryMisses(latest, Long.MAX_VALUE - 10, Long.MAX_VALUE)).as("saturates, never wraps").isTrue();
    }

    @Test
    void shouldRefuseAHaltGraceOutsideZeroToADay() {
        assertThat(DeadlineSettings.DEFAULTS.haltGrace()).isEqualTo(Duration.ofSeconds(30));
        assertThat(DeadlineSettings.DEFAULTS.withHaltGrace(Duration.ofDays(1)).haltGrace()).isEqualTo(Duration.ofDays(1));
        assertThatThrownBy(() -> DeadlineSettings.DEFAULTS.withHaltGrace(Duration.ofMillis(-1)))
                .hasMessageContaining("deadline.halt-grace must be a duration from 0 to 1d");
        assertThatThrownBy(() -> DeadlineSettings.DEFAULTS.withHaltGrace(Duration.ofDays(1).plusMillis(1)))
                .hasMessageContaining("deadline.halt-grace");
    }

    @Test
    void shouldPreferAFallbackAndOtherwiseDoAsTheActionSays() {
        DeadlinePolicy.Route down = new DeadlinePolicy.Route(PACE, Long.MAX_VALUE);
        assertThat(policy(DeadlineAction.HANDOFF).decide(NOW, queue(1, NOW + 5_000, true), down))
                .singleElement().extracting(DeadlinePolicy.Verdict::kind).isEqualTo(DeadlinePolicy.Kind.FALL_BACK);
        assertThat(policy(DeadlineAction.SHED).decide(NOW, queue(1, NOW + 5_000, false), down))
                .singleElement().extracting(DeadlinePolicy.Verdict::kind).isEqualTo(DeadlinePolicy.Kind.SHED);
        assertThat(policy(DeadlineAction.KEEP).decide(NOW, queue(1, NOW + 5_000, false), down)).isEmpty();
    }

    @Test
    void shouldShedTicketsExpectedToWaitBeyondTheirClassLimitOnly() {
        DeadlinePolicy p = new DeadlinePolicy(DeadlineSettings.DEFAULTS.withMaxWait(Map.of(Priority.STANDARD, Duration.ofSeconds(5))));
        List<DeadlinePolicy.Verdict> v = p.decide(NOW, queue(8, 0, false), new DeadlinePolicy.Route(PACE, NOW));

        assertThat(v).extracting(DeadlinePolicy.Verdict::id).as("ticket i starts after i s").containsExactly("T-6", "T-7");
        assertThat(v).allSatisfy(x -> assertThat(x.reason()).isEqualTo(HandoffReason.MAX_WAIT));
        assertThat(p.decide(NOW, queue(8, 0, false), new DeadlinePolicy.Route(PACE, Long.MAX_VALUE)))
                .as("a halted route sheds only what has waited that long already").isEmpty();
    }

    @Test
    void shouldSayWhetherARetryComesBackTooLate() {
        assertThat(DeadlinePolicy.retryMisses(NOW + 10_000, NOW + 5_000, 1_000)).isFalse();
        assertThat(DeadlinePolicy.retryMisses(NOW + 10_000, NOW + 8_500, 1_000)).isTrue();
        assertThat(DeadlinePolicy.retryMisses(0, NOW + 1_000_000, 1_000)).as("no deadline").isFalse();
    }

    @Test
    void shouldTakeTheTicketsOwnDeadlineOrItsClassDefault() throws Exception {
        DeadlineSettings settings = DeadlineSettings.DEFAULTS.withDefaults(Map.of(Priority.INTERACTIVE, Duration.ofSeconds(30)));
        JsonNode own = Json.MAPPER.readTree("{\"id\":\"1\",\"deadline\":\"2026-12-02T16:00:00+01:00\"}");
        JsonNode none = Json.MAPPER.readTree("{\"id\":\"1\"}");

        assertThat(Deadlines.of(own, Priority.BULK, NOW, settings)).isEqualTo(Instant.parse("2026-12-02T15:00:00Z").toEpochMilli());
        assertThat(Deadlines.of(none, Priority.INTERACTIVE, NOW, settings)).isEqualTo(NOW + 30_000);
        assertThat(Deadlines.of(none, Priority.STANDARD, NOW, settings)).isZero();
        for (String bad : List.of("\"tomorrow\"", "1764690000000", "\"2026-12-02T16:00:00\"")) {
            JsonNode t = Json.MAPPER.readTree("{\"id\":\"1\",\"deadline\":" + bad + "}");
            assertThatThrownBy(() -> Deadlines.of(t, Priority.BULK, NOW, settings)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("ISO-8601 instant with an offset");
        }
    }

    @Test
    void shouldRefuseADeadlineOutsideTheYears1970To9999AsBadInput() throws Exception {
        DeadlineSettings settings = DeadlineSettings.DEFAULTS;
        for (String bad : List.of("+300000000-01-01T00:00:00Z", "+10000-01-01T00:00:00Z", "1969-12-31T23:59:59Z",
                "-000001-01-01T00:00:00Z", "+999999999-12-31T23:59:59+18:00")) {
            JsonNode t = Json.MAPPER.readTree("{\"id\":\"1\",\"deadline\":\"" + bad + "\"}");
            assertThatThrownBy(() -> Deadlines.of(t, Priority.BULK, NOW, settings)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("deadline must lie between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z")
                    .hasMessageContaining(bad.substring(0, 10));
        }
        JsonNode latest = Json.MAPPER.readTree("{\"id\":\"1\",\"deadline\":\"9999-12-31T23:59:59.999Z\"}");
        JsonNode earliest = Json.MAPPER.readTree("{\"id\":\"1\",\"deadline\":\"1970-01-01T00:00:00Z\"}");
        assertThat(Deadlines.of(latest, Priority.BULK, NOW, settings)).isEqualTo(Deadlines.LATEST.toEpochMilli());
        assertThat(Deadlines.of(earliest, Priority.BULK, NOW, settings)).as("passed, and still a deadline").isEqualTo(1);
    }

    @Test
    void shouldCapAClassDefaultThatWouldOverflowAtTheLatestDeadline() throws Exception {
        DeadlineSettings settings = DeadlineSettings.DEFAULTS.withDefaults(Map.of(Priority.BULK, Duration.ofSeconds(Long.MAX_VALUE / 2),
                Priority.STANDARD, Duration.ofDays(365L * 9000)));
        JsonNode none = Json.MAPPER.readTree("{\"id\":\"1\"}");

        assertThat(Deadlines.of(none, Priority.BULK, NOW, settings)).isEqualTo(Deadlines.LATEST.toEpochMilli());
        assertThat(Deadlines.of(none, Priority.STANDARD, Long.MAX_VALUE - 5, settings)).isEqualTo(Deadlines.LATEST.toEpochMilli());
    }

    @Test
    void shouldRefuseANonPositiveDurationAndAnUnknownAction() {
        assertThatThrownBy(() -> DeadlineSettings.DEFAULTS.withMaxWait(Map.of(Priority.BULK, Duration.ZERO)))
                .hasMessageContaining("queue.max-wait.bulk must be a positive duration");
        assertThatThrownBy(() -> DeadlineAction.parse("drop")).hasMessageContaining("handoff, shed or keep");
        assertThat(DeadlineAction.parse(" Shed ")).isEqualTo(DeadlineAction.SHED);
    }
}
