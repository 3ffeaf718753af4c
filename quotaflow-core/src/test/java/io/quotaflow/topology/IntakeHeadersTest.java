package io.quotaflow.topology;

import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class IntakeHeadersTest {

    private static final WorkItem.Origin HERE = new WorkItem.Origin("tickets.retry", 3, 42);

    private static RecordHeaders headers(String... pairs) {
        RecordHeaders h = new RecordHeaders();
        for (int i = 0; i < pairs.length; i += 2) {
            h.add(pairs[i], pairs[i + 1].getBytes(StandardCharsets.UTF_8));
        }
        return h;
    }

    @Test
    void shouldReadOnlyTheReplayPairOnAFreshTicket() {
        RecordHeaders h = headers(DeadLetterHeaders.ATTEMPT, "7", DeadLetterHeaders.ORIGIN_TOPIC, "elsewhere",
                DeadLetterHeaders.REPLAY_COUNT, "2", DeadLetterHeaders.REPLAY_OF, "0:17", DeadLetterHeaders.VALUE_TRUNCATED, "true");
        WorkItem.Origin fresh = new WorkItem.Origin("tickets.standard", 1, 5);
        IntakeHeaders qf = IntakeHeaders.decode(h, fresh, false, 1_000, 900);
        assertThat(qf.origin()).isEqualTo(fresh);
        assertThat(qf.attempt()).as("a producer cannot set quotaflow's own state").isZero();
        assertThat(qf.enqueuedAt()).isEqualTo(1_000);
        assertThat(qf.publishedAt()).as("a fresh publication is as old as its record").isEqualTo(900);
        assertThat(qf.failure()).isNull();
        assertThat(qf.truncated()).isFalse();
        assertThat(qf.replayCount()).isEqualTo(2);
        assertThat(qf.replayOf()).isEqualTo("0:17");
        assertThat(qf.boost()).isEqualTo(1);
    }

    @Test
    void shouldRestoreTheWholeFailureStateOfARetry() {
        RecordHeaders h = headers(DeadLetterHeaders.ORIGIN_TOPIC, "tickets.bulk", DeadLetterHeaders.ORIGIN_PARTITION, "2",
                DeadLetterHeaders.ORIGIN_OFFSET, "99", DeadLetterHeaders.ENQUEUED_AT, "500", DeadLetterHeaders.ATTEMPT, "3",
                DeadLetterHeaders.NOT_BEFORE, "2500", DeadLetterHeaders.FIRST_FAILURE, "600", DeadLetterHeaders.LAST_FAILURE, "900",
                DeadLetterHeaders.ERROR_KIND, "server-error", DeadLetterHeaders.ERROR_STATUS, "503", DeadLetterHeaders.ERROR_MESSAGE, "busy",
                DeadLetterHeaders.BATCH_CAP, "1", DeadLetterHeaders.MAX_TOKENS_BOOST, "4", DeadLetterHeaders.VALUE_TRUNCATED, "true",
                DeadLetterHeaders.ORIGINAL_SIZE, "2000000", DeadLetterHeaders.ORIGINAL_SHA256, "ab12");
        IntakeHeaders qf = IntakeHeaders.decode(h, HERE, true, 3_000, 2_900);
        assertThat(qf.origin()).isEqualTo(new WorkItem.Origin("tickets.bulk", 2, 99));
        assertThat(qf.enqueuedAt()).isEqualTo(500);
        assertThat(qf.attempt()).isEqualTo(3);
        assertThat(qf.notBefore()).isEqualTo(2_500);
        assertThat(qf.failure()).isEqualTo(new WorkItem.FailureState(600, 900, "server-error", 503, "busy"));
        assertThat(qf.batchCap()).isEqualTo(1);
        assertThat(qf.boost()).isEqualTo(4);
        assertThat(qf.truncated()).isTrue();
        assertThat(qf.originalSize()).hasValue(2_000_000);
        assertThat(qf.originalSha256()).isEqualTo("ab12");
    }

    @Test
    void shouldFallBackWhenARetrysHeadersAreMissingOrMalformed() {
        RecordHeaders h = headers(DeadLetterHeaders.ATTEMPT, "many", DeadLetterHeaders.ENQUEUED_AT, "yesterday");
        IntakeHeaders qf = IntakeHeaders.decode(h, HERE, true, 3_000, 2_900);
        assertThat(qf.origin()).isEqualTo(HERE);
        assertThat(qf.attempt()).isEqualTo(1);
        assertThat(qf.enqueuedAt()).isEqualTo(3_000);
        assertThat(qf.notBefore()).isEqualTo(3_000);
        assertThat(qf.failure().kind()).isEqualTo("transient");
        assertThat(qf.truncated()).isFalse();
        assertThat(qf.originalSize()).isEmpty();
    }
}
