package io.quotaflow.topology;

import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.failure.ErrorKind;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.common.header.Headers;

import java.util.OptionalLong;

/**
 * What the intake reads from a record's {@code qf.*} headers. A fresh ticket carries only the
 * replay pair {@code dlq replay} writes (any other {@code qf.*} header a producer sets is ignored);
 * a ticket coming back from {@code tickets.retry} carries its whole failure state, which quotaflow
 * wrote itself: its origin, age, attempt, not-before time, last failure, batch cap, {@code max_tokens}
 * boost, and, for a reduced ticket, the size and SHA-256 of the producer's original. A header that
 * is missing or malformed falls back to what a fresh ticket would have.
 *
 * @param origin      where the ticket was first read ({@code qf.origin.*} on a retry, else here)
 * @param enqueuedAt  first intake time (its age counts from there)
 * @param attempt     failed attempts so far (0 when fresh)
 * @param notBefore   earliest dispatch time
 * @param failure     the last failure, null when fresh
 * @param replayCount times replayed from the dead-letter topic
 * @param replayOf    the dead letter replayed ({@code partition:offset}), or null
 * @param batchCap    most tickets in its batch (0: no cap)
 * @param boost       {@code max_tokens} multiplier
 * @param truncated   a reduced ticket standing for a larger original
 * @param originalSize the original's size when truncated
 * @param originalSha256 the original's SHA-256 when truncated, or null
 * @param publishedAt the publication's time: a fresh record's timestamp, a retry's {@code qf.published-at}
 */
record IntakeHeaders(WorkItem.Origin origin, long enqueuedAt, int attempt, long notBefore, WorkItem.FailureState failure,
                     int replayCount, String replayOf, int batchCap, int boost, boolean truncated, OptionalLong originalSize,
                     String originalSha256, WorkItem.Routed routed, long publishedAt) {

    /** The headers of a record read at {@code here} (from the retry topic when {@code fromRetry}) at {@code now}. */
    static IntakeHeaders decode(Headers h, WorkItem.Origin here, boolean fromRetry, long now, long timestamp) {
        int replayCount = Math.max(0, FailureHeaders.integer(h, DeadLetterHeaders.REPLAY_COUNT).orElse(0));
        String replayOf = FailureHeaders.string(h, DeadLetterHeaders.REPLAY_OF).orElse(null);
        if (!fromRetry) {
            return new IntakeHeaders(here, now, 0, 0, null, replayCount, replayOf, 0, 1, false, OptionalLong.empty(), null,
                    WorkItem.Routed.NONE, timestamp >= 0 ? timestamp : now);
        }
        WorkItem.Origin origin = new WorkItem.Origin(FailureHeaders.string(h, DeadLetterHeaders.ORIGIN_TOPIC).orElse(here.topic()),
                FailureHeaders.integer(h, DeadLetterHeaders.ORIGIN_PARTITION).orElse(here.partition()),
                FailureHeaders.longValue(h, DeadLetterHeaders.ORIGIN_OFFSET).orElse(here.offset()));
        WorkItem.FailureState failure = new WorkItem.FailureState(
                FailureHeaders.longValue(h, DeadLetterHeaders.FIRST_FAILURE).orElse(now),
                FailureHeaders.longValue(h, DeadLetterHeaders.LAST_FAILURE).orElse(now),
                FailureHeaders.string(h, DeadLetterHeaders.ERROR_KIND).orElse(ErrorKind.TRANSIENT.wire()),
                FailureHeaders.integer(h, DeadLetterHeaders.ERROR_STATUS).orElse(0),
                FailureHeaders.string(h, DeadLetterHeaders.ERROR_MESSAGE).orElse(""),
                Math.max(0, FailureHeaders.longValue(h, DeadLetterHeaders.CALL_MS).orElse(0L)),
                Math.max(0, FailureHeaders.longValue(h, DeadLetterHeaders.RETRY_WAIT_MS).orElse(0L)));
        boolean truncated = FailureHeaders.string(h, DeadLetterHeaders.VALUE_TRUNCATED).filter("true"::equals).isPresent();
        long enqueuedAt = FailureHeaders.longValue(h, DeadLetterHeaders.ENQUEUED_AT).orElse(now);
        return new IntakeHeaders(origin, enqueuedAt,
                Math.max(1, FailureHeaders.integer(h, DeadLetterHeaders.ATTEMPT).orElse(1)),
                FailureHeaders.longValue(h, DeadLetterHeaders.NOT_BEFORE).orElse(now), failure, replayCount, replayOf,
                FailureHeaders.integer(h, DeadLetterHeaders.BATCH_CAP).orElse(0),
                FailureHeaders.integer(h, DeadLetterHeaders.MAX_TOKENS_BOOST).orElse(1), truncated,
                truncated ? FailureHeaders.longValue(h, DeadLetterHeaders.ORIGINAL_SIZE) : OptionalLong.empty(),
                truncated ? FailureHeaders.string(h, DeadLetterHeaders.ORIGINAL_SHA256).orElse(null) : null,
                new WorkItem.Routed(FailureHeaders.string(h, DeadLetterHeaders.ROUTE).orElse(null),
                        FailureHeaders.string(h, DeadLetterHeaders.FALLBACK_FROM).orElse(null),
                        FailureHeaders.string(h, DeadLetterHeaders.FALLBACK_REASON).orElse(null)),
                FailureHeaders.longValue(h, DeadLetterHeaders.PUBLISHED_AT).orElse(enqueuedAt));
    }
}
