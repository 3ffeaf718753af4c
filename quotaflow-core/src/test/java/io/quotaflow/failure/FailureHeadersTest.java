package io.quotaflow.failure;

import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FailureHeadersTest {

    @Test
    void shouldScrubCredentialsFromEveryErrorMessage() {
        String message = FailureHeaders.truncate("401: Incorrect API key provided: sk-proj-LEAKC0123456789abcdefXYZ.\nBearer abc.def.ghi");
        assertThat(message).doesNotContain("LEAKC0123456789").doesNotContain("abc.def.ghi").doesNotContain("\n");
        assertThat(FailureHeaders.truncate("Rate limit reached: Limit 30000, Used 29000, Requested 1500."))
                .isEqualTo("Rate limit reached: Limit 30000, Used 29000, Requested 1500.");
    }

    @Test
    void shouldKeepOnlyTheProducersOwnHeadersWithinTheirBudget() {
        Headers in = new RecordHeaders();
        in.add("trace-id", "t-1".getBytes(StandardCharsets.UTF_8));
        in.add(DeadLetterHeaders.ORIGIN_TOPIC, "forged".getBytes(StandardCharsets.UTF_8));
        in.add(DeadLetterHeaders.ATTEMPT, "9".getBytes(StandardCharsets.UTF_8));
        in.add("big", new byte[5_000]);
        in.add("nullable", null);
        FailureHeaders.ProducerHeaders kept = FailureHeaders.producerHeaders(in, 1_000);
        assertThat(kept.kept()).extracting(WorkItem.Header::key).containsExactly("trace-id", "nullable");
        assertThat(kept.dropped()).isEqualTo(1);
    }

    @Test
    void shouldPutTheProducersHeadersFirstAndQuotaflowsOwnOnceEach() {
        WorkItem item = new WorkItem(new WorkItem.Identity("T-1", Priority.BULK, "acme"),
                new WorkItem.Content("{}".getBytes(StandardCharsets.UTF_8), 9_999, "abc",
                        List.of(new WorkItem.Header("trace-id", "t-1".getBytes(StandardCharsets.UTF_8))), null),
                new WorkItem.Journey(new WorkItem.Origin("tickets.bulk", 1, 2), 10, 10, 0, WorkItem.Routed.NONE),
                new WorkItem.Attempts(1, 20, null, 0, null), new WorkItem.Sizing(1, 0, 1));
        Headers h = FailureHeaders.forItem(item, "transient", 503, "busy");
        assertThat(h.toArray()[0].key()).isEqualTo("trace-id");
        assertThat(h.headers(DeadLetterHeaders.ORIGIN_TOPIC)).hasSize(1);
        assertThat(FailureHeaders.string(h, DeadLetterHeaders.VALUE_TRUNCATED)).contains("true");
        assertThat(FailureHeaders.string(h, DeadLetterHeaders.ORIGINAL_SIZE)).contains("9999");
        assertThat(FailureHeaders.string(h, DeadLetterHeaders.ORIGINAL_SHA256)).contains("abc");
    }
}
