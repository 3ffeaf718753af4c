package io.quotaflow.admin;

import io.quotaflow.admin.TimedOutTransactions.Sweep;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import io.quotaflow.testkit.ManualTime;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutionException;

import static org.assertj.core.api.Assertions.assertThat;

class TimedOutTransactionsTest {

    private static final String APP = "app";
    private static final String DEAD = APP + "-0b7e3c1a-4d2f-4e8a-9b1c-2d3e4f5a6b7c-1";
    private static final String LIVE = APP + "-9f3a2b1c-0d9e-4f8a-b7c6-d5e4f3a2b1c0-1";
    private static final String LIVE_2 = APP + "-9f3a2b1c-0d9e-4f8a-b7c6-d5e4f3a2b1c0-2";
    private static final String WITHIN_MARGIN = APP + "-1a2b3c4d-0d9e-4f8a-b7c6-d5e4f3a2b1c0-1";
    private static final String LONG_TIMEOUT = APP + "-2a2b3c4d-0d9e-4f8a-b7c6-d5e4f3a2b1c0-1";
    private static final String ABORTING = APP + "-3a2b3c4d-0d9e-4f8a-b7c6-d5e4f3a2b1c0-1";
    private static final String OTHER_APP = "other-4a2b3c4d-0d9e-4f8a-b7c6-d5e4f3a2b1c0-1";
    private static final String REPLAY = APP + "-dlq-replay-g1";

    @Test
    void shouldEndOnlyOurTransactionsTheCoordinatorHasSeenOpenAMarginPastTheirOwnTimeout() throws Exception {
        FakeCoordinator broker = new FakeCoordinator(100_000);
        broker.open(DEAD, 6_100, 5_000);          // 1.1 s past its 5 s timeout: due
        broker.open(WITHIN_MARGIN, 5_500, 5_000);  // within the margin: not yet
        broker.open(LONG_TIMEOUT, 60_000, 120_000); // a long timeout of its own: not yet
        broker.open(OTHER_APP, 60_000, 5_000);     // another application's: left to the broker
        broker.open(REPLAY, 60_000, 5_000);        // a dlq replay's, not a Kafka Streams producer
        broker.put(ABORTING, TransactionState.PREPARE_ABORT, 60_000, 5_000);

        Sweep sweep = new TimedOutTransactions(broker, APP).abortTimedOut();

        assertThat(sweep.status()).isEqualTo(Sweep.Status.LOOKED);
        assertThat(sweep.ended()).containsExactly(DEAD);
        assertThat(broker.fenced).containsExactly(DEAD);
    }

    @ParameterizedTest
    @ValueSource(longs = {5_001, 6_000, 3_600_000})
    void shouldEndNothingLiveWhenTheLocalClockIsAhead(long skewMs) throws Exception {
        FakeCoordinator broker = new FakeCoordinator(1_000_000);
        ManualTime local = new ManualTime(broker.nowMs + skewMs);
        broker.open(LIVE, 1_500, 5_000);   // a live producer's transaction, 1.5 s old by the coordinator's clock
        broker.open(LIVE_2, 200, 5_000);
        broker.open(DEAD, 7_000, 5_000);   // genuinely stuck: 2 s past its timeout
        TimedOutTransactions.Watch watch = new TimedOutTransactions.Watch(new TimedOutTransactions(broker, APP), () -> { }, local, false);

        watch.stateChanged(KafkaStreams.State.REBALANCING);
        local.advanceMs(1_000);
        broker.nowMs += 1_000;
        Sweep first = watch.tick();
        local.advanceMs(1_000);
        broker.nowMs += 1_000;
        Sweep second = watch.tick();

        assertThat(first.ended()).containsExactly(DEAD);
        assertThat(second.ended()).isEmpty();
        assertThat(broker.fenced).as("the live producers, 2.5 s and 1.2 s old at the second look, are never fenced")
                .containsExactly(DEAD);
    }

    @Test
    void shouldEndNothingAndSaySoWhenTheBrokersDoNotMeasureDurations() throws Exception {
        FakeCoordinator broker = new FakeCoordinator(100_000);
        broker.open(DEAD, 60_000, 5_000);
        broker.unsupported = true;

        Sweep sweep = new TimedOutTransactions(broker, APP).abortTimedOut();

        assertThat(sweep.status()).isEqualTo(Sweep.Status.UNSUPPORTED);
        assertThat(sweep.ended()).isEmpty();
        assertThat(broker.fenced).isEmpty();
    }

    @Test
    void shouldLookOnlyWithinThirtySecondsOfARebalanceByTheMonotonicClock() throws Exception {
        FakeCoordinator broker = new FakeCoordinator(100_000);
        ManualTime local = new ManualTime(0);
        TimedOutTransactions.Watch watch = new TimedOutTransactions.Watch(new TimedOutTransactions(broker, APP), () -> { }, local, false);

        assertThat(watch.tick()).as("no rebalance yet").isNull();
        watch.stateChanged(KafkaStreams.State.RUNNING);
        assertThat(watch.tick()).isNull();
        watch.stateChanged(KafkaStreams.State.REBALANCING);
        local.advanceMs(30_000);
        assertThat(watch.tick()).isNotNull();
        local.advanceMs(1);
        assertThat(watch.tick()).isNull();
        assertThat(broker.listings).isEqualTo(1);
    }

    /** A transaction coordinator with a clock of its own ({@link #nowMs}), as the broker's. */
    private static final class FakeCoordinator implements TimedOutTransactions.Coordinator {

        private record Txn(TransactionState state, long startMs, int timeoutMs) {
        }

        private final Map<String, Txn> transactions = new LinkedHashMap<>();
        private final List<String> fenced = new ArrayList<>();
        private long nowMs;
        private boolean unsupported;
        private int listings;

        FakeCoordinator(long nowMs) {
            this.nowMs = nowMs;
        }

        void open(String id, long ageMs, int timeoutMs) {
            put(id, TransactionState.ONGOING, ageMs, timeoutMs);
        }

        void put(String id, TransactionState state, long ageMs, int timeoutMs) {
            transactions.put(id, new Txn(state, nowMs - ageMs, timeoutMs));
        }

        @Override
        public List<String> ongoingLongerThan(long durationMs) throws ExecutionException {
            listings++;
            if (unsupported) {
                throw new ExecutionException(new UnsupportedVersionException("ListTransactions v0 has no DurationFilter"));
            }
            return transactions.entrySet().stream()
                    .filter(e -> e.getValue().state() == TransactionState.ONGOING && nowMs - e.getValue().startMs() > durationMs)
                    .map(Map.Entry::getKey).toList();
        }

        @Override
        public Map<String, TransactionDescription> describe(Collection<String> ids) {
            Map<String, TransactionDescription> out = new LinkedHashMap<>();
            ids.forEach(id -> {
                Txn t = transactions.get(id);
                out.put(id, new TransactionDescription(1, t.state(), 7, 0, t.timeoutMs(), OptionalLong.of(t.startMs()), Set.of()));
            });
            return out;
        }

        @Override
        public void fence(Collection<String> ids) {
            fenced.addAll(ids);
            ids.forEach(id -> transactions.put(id, new Txn(TransactionState.COMPLETE_ABORT, -1, transactions.get(id).timeoutMs())));
        }
    }
}
