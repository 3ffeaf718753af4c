package io.quotaflow.deadline;

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
    void shouldRefuseANonPositiveDurationAndAnUnknownAction() {
        assertThatThrownBy(() -> DeadlineSettings.DEFAULTS.withMaxWait(Map.of(Priority.BULK, Duration.ZERO)))
                .hasMessageContaining("queue.max-wait.bulk must be a positive duration");
        assertThatThrownBy(() -> DeadlineAction.parse("drop")).hasMessageContaining("handoff, shed or keep");
        assertThat(DeadlineAction.parse(" Shed ")).isEqualTo(DeadlineAction.SHED);
    }
}
