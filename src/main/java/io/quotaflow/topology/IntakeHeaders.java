package io.quotaflow.topology;

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
 */
record IntakeHeaders(WorkItem.Origin origin, long enqueuedAt, int attempt, long notBefore, WorkItem.FailureState failure,
                     int replayCount, String replayOf, int batchCap, int boost, boolean truncated, OptionalLong originalSize,
                     String originalSha256, WorkItem.Routed routed) {

    /** The headers of a record read at {@code here} (from the retry topic when {@code fromRetry}) at {@code now}. */
    static IntakeHeaders decode(Headers h, WorkItem.Origin here, boolean fromRetry, long now) {
        int replayCount = Math.max(0, FailureHeaders.integer(h, FailureHeaders.REPLAY_COUNT).orElse(0));
        String replayOf = FailureHeaders.string(h, FailureHeaders.REPLAY_OF).orElse(null);
        if (!fromRetry) {
            return new IntakeHeaders(here, now, 0, 0, null, replayCount, replayOf, 0, 1, false, OptionalLong.empty(), null,
                    WorkItem.Routed.NONE);
        }
        WorkItem.Origin origin = new WorkItem.Origin(FailureHeaders.string(h, FailureHeaders.ORIGIN_TOPIC).orElse(here.topic()),
                FailureHeaders.integer(h, FailureHeaders.ORIGIN_PARTITION).orElse(here.partition()),
                FailureHeaders.longValue(h, FailureHeaders.ORIGIN_OFFSET).orElse(here.offset()));
        WorkItem.FailureState failure = new WorkItem.FailureState(
                FailureHeaders.longValue(h, FailureHeaders.FIRST_FAILURE).orElse(now),
                FailureHeaders.longValue(h, FailureHeaders.LAST_FAILURE).orElse(now),
                FailureHeaders.string(h, FailureHeaders.ERROR_KIND).orElse(ErrorKind.TRANSIENT.wire()),
                FailureHeaders.integer(h, FailureHeaders.ERROR_STATUS).orElse(0),
                FailureHeaders.string(h, FailureHeaders.ERROR_MESSAGE).orElse(""));
        boolean truncated = FailureHeaders.string(h, FailureHeaders.VALUE_TRUNCATED).filter("true"::equals).isPresent();
        return new IntakeHeaders(origin, FailureHeaders.longValue(h, FailureHeaders.ENQUEUED_AT).orElse(now),
                Math.max(1, FailureHeaders.integer(h, FailureHeaders.ATTEMPT).orElse(1)),
                FailureHeaders.longValue(h, FailureHeaders.NOT_BEFORE).orElse(now), failure, replayCount, replayOf,
                FailureHeaders.integer(h, FailureHeaders.BATCH_CAP).orElse(0),
                FailureHeaders.integer(h, FailureHeaders.MAX_TOKENS_BOOST).orElse(1), truncated,
                truncated ? FailureHeaders.longValue(h, FailureHeaders.ORIGINAL_SIZE) : OptionalLong.empty(),
                truncated ? FailureHeaders.string(h, FailureHeaders.ORIGINAL_SHA256).orElse(null) : null,
                new WorkItem.Routed(FailureHeaders.string(h, FailureHeaders.ROUTE).orElse(null),
                        FailureHeaders.string(h, FailureHeaders.FALLBACK_FROM).orElse(null),
                        FailureHeaders.string(h, FailureHeaders.FALLBACK_REASON).orElse(null)));
    }
}
