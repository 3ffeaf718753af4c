package io.quotaflow.dlq;

import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.failure.FailureHeaders;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;

import java.nio.charset.StandardCharsets;

/** Which dead letters a replay writes back: the filters, loop protection and the {@code --force} rule. Pure. */
public final class ReplaySelector {

    private ReplaySelector() {
    }

    /**
     * What happens to {@code record} under {@code options}: filters first, then loop protection
     * ({@code qf.replay.count} against {@code maxReplays}), then {@link ForceRule}.
     */
    public static ReplayDecision decide(ConsumerRecord<byte[], byte[]> record, ReplayOptions options) {
        Headers h = record.headers();
        String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
        String kind = FailureHeaders.string(h, DeadLetterHeaders.ERROR_KIND).orElse(null);
        boolean selected = options.matches(record.timestamp(), kind,
                FailureHeaders.string(h, DeadLetterHeaders.ERROR_STATUS).orElse(null), key);
        if (!selected) {
            return ReplayDecision.FILTERED;
        }
        if (replayCount(h) >= options.maxReplays()) {
            return ReplayDecision.MAX_REPLAYS;
        }
        return !options.force() && ForceRule.needsForce(kind) ? ReplayDecision.NEEDS_FORCE : ReplayDecision.REPLAY;
    }

    /** {@code qf.replay.count}, 0 when absent or not a number. */
    public static int replayCount(Headers headers) {
        return Math.max(0, FailureHeaders.integer(headers, DeadLetterHeaders.REPLAY_COUNT).orElse(0));
    }

    /** {@code qf.error.kind}, stripped, or {@code (none)}. */
    static String kind(Headers headers) {
        return FailureHeaders.string(headers, DeadLetterHeaders.ERROR_KIND).map(String::strip).orElse("(none)");
    }
}
