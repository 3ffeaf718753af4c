package io.quotaflow.topology;

import io.quotaflow.failure.FailureHeaders;
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
        RecordHeaders h = headers(FailureHeaders.ATTEMPT, "7", FailureHeaders.ORIGIN_TOPIC, "elsewhere",
                FailureHeaders.REPLAY_COUNT, "2", FailureHeaders.REPLAY_OF, "0:17", FailureHeaders.VALUE_TRUNCATED, "true");
        WorkItem.Origin fresh = new WorkItem.Origin("tickets.standard", 1, 5);
        IntakeHeaders qf = IntakeHeaders.decode(h, fresh, false, 1_000);
        assertThat(qf.origin()).isEqualTo(fresh);
        assertThat(qf.attempt()).as("a producer cannot set quotaflow's own state").isZero();
        assertThat(qf.enqueuedAt()).isEqualTo(1_000);
        assertThat(qf.failure()).isNull();
        assertThat(qf.truncated()).isFalse();
        assertThat(qf.replayCount()).isEqualTo(2);
        assertThat(qf.replayOf()).isEqualTo("0:17");
        assertThat(qf.boost()).isEqualTo(1);
    }

    @Test
    void shouldRestoreTheWholeFailureStateOfARetry() {
        RecordHeaders h = headers(FailureHeaders.ORIGIN_TOPIC, "tickets.bulk", FailureHeaders.ORIGIN_PARTITION, "2",
                FailureHeaders.ORIGIN_OFFSET, "99", FailureHeaders.ENQUEUED_AT, "500", FailureHeaders.ATTEMPT, "3",
                FailureHeaders.NOT_BEFORE, "2500", FailureHeaders.FIRST_FAILURE, "600", FailureHeaders.LAST_FAILURE, "900",
                FailureHeaders.ERROR_KIND, "server-error", FailureHeaders.ERROR_STATUS, "503", FailureHeaders.ERROR_MESSAGE, "busy",
                FailureHeaders.BATCH_CAP, "1", FailureHeaders.MAX_TOKENS_BOOST, "4", FailureHeaders.VALUE_TRUNCATED, "true",
                FailureHeaders.ORIGINAL_SIZE, "2000000", FailureHeaders.ORIGINAL_SHA256, "ab12");
        IntakeHeaders qf = IntakeHeaders.decode(h, HERE, true, 3_000);
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
        RecordHeaders h = headers(FailureHeaders.ATTEMPT, "many", FailureHeaders.ENQUEUED_AT, "yesterday");
        IntakeHeaders qf = IntakeHeaders.decode(h, HERE, true, 3_000);
        assertThat(qf.origin()).isEqualTo(HERE);
        assertThat(qf.attempt()).isEqualTo(1);
        assertThat(qf.enqueuedAt()).isEqualTo(3_000);
        assertThat(qf.notBefore()).isEqualTo(3_000);
        assertThat(qf.failure().kind()).isEqualTo("transient");
        assertThat(qf.truncated()).isFalse();
        assertThat(qf.originalSize()).isEmpty();
    }
}
