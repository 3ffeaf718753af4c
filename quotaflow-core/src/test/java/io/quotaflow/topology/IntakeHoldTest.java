package io.quotaflow.topology;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class IntakeHoldTest {

    private static final TopicPartition DISPATCH = new TopicPartition("app-dispatch-repartition", 0);
    private static final TopicPartition LANE = new TopicPartition("app-dispatch-interactive-repartition", 0);
    private static final TopicPartition BULK = new TopicPartition("tickets.bulk", 0);
    private static final TopicPartition STANDARD = new TopicPartition("tickets.standard", 1);
    private static final TopicPartition RETRY = new TopicPartition("tickets.retry", 0);
    private static final TopicPartition INTERACTIVE = new TopicPartition("tickets.interactive", 0);
    private static final Set<TopicPartition> ASSIGNED = Set.of(DISPATCH, LANE, BULK, STANDARD, RETRY, INTERACTIVE);

    private final IntakeHold hold = new IntakeHold(Set.of(DISPATCH.topic(), LANE.topic()), Set.of(INTERACTIVE.topic()), 500);

    private static OptionalLong lag(Map<TopicPartition, Long> lags, TopicPartition tp) {
        Long lag = lags.get(tp);
        return lag == null ? OptionalLong.empty() : OptionalLong.of(lag);
    }

    @Test
    void shouldHoldEveryInputButTheInteractiveOneWhileADispatchPartitionLags() {
        Set<TopicPartition> held = hold.held(ASSIGNED, Set.of(), tp -> lag(Map.of(DISPATCH, 501L, LANE, 0L), tp));

        assertEquals(Set.of(BULK, STANDARD, RETRY), held);
    }

    @Test
    void shouldHoldWhenTheInteractiveLaneLags() {
        assertEquals(Set.of(BULK, STANDARD, RETRY), hold.held(ASSIGNED, Set.of(), tp -> lag(Map.of(DISPATCH, 0L, LANE, 900L), tp)));
    }

    @Test
    void shouldHoldNothingWhileTheDispatchPartitionsKeepUp() {
        assertEquals(Set.of(), hold.held(ASSIGNED, Set.of(), tp -> lag(Map.of(DISPATCH, 500L, LANE, 3L, BULK, 90_000L), tp)));
    }

    @Test
    void shouldNotHoldBehindADispatchPartitionKafkaStreamsPausedItself() {
        // a task restoring, or one whose buffer is full: intake never waits on a task that is not reading
        assertEquals(Set.of(), hold.held(ASSIGNED, Set.of(DISPATCH), tp -> lag(Map.of(DISPATCH, 10_000L), tp)));
    }

    @Test
    void shouldCountALagNotKnownYetAsNone() {
        assertEquals(Set.of(), hold.held(ASSIGNED, Set.of(), tp -> OptionalLong.empty()));
    }

    @Test
    void shouldHoldOnlyWhatIsAssigned() {
        // another instance reads the dispatch partition: this thread's lag of it is not known, so nothing is held
        assertEquals(Set.of(), hold.held(Set.of(BULK, INTERACTIVE), Set.of(), tp -> lag(Map.of(DISPATCH, 10_000L), tp)));
        assertEquals(Set.of(BULK), hold.held(Set.of(BULK, DISPATCH), Set.of(), tp -> lag(Map.of(DISPATCH, 10_000L), tp)));
    }

    @Test
    void shouldNeverHoldWhenTheLagIsZero() {
        IntakeHold off = new IntakeHold(Set.of(DISPATCH.topic()), Set.of(), 0);

        assertFalse(off.enabled());
        assertEquals(Set.of(), off.held(ASSIGNED, Set.of(), tp -> OptionalLong.of(1_000_000)));
    }

    @Test
    void shouldRejectANegativeLag() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new IntakeHold(Set.of(), Set.of(), -1));

        assertEquals("intake.hold-dispatch-lag must be at least 0, got -1", e.getMessage());
    }
}
