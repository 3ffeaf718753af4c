package io.quotaflow.dlq;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;

/**
 * Whether a replay's failure means a newer replay of its group fenced it (see {@link DeadLetterReplayer}'s
 * class comment), and the exception the replay ends with then.
 */
final class ReplayFencing {

    private ReplayFencing() {
    }

    /**
     * The exception a failed batch ends the replay with: {@link ReplayFencedException} when a newer
     * replay of the group fenced this one (the error or anything it was caused by or suppressed),
     * else a {@link DeadLetterException} with {@code message}.
     */
    static DeadLetterException failure(KafkaException e, ReplayOptions options, long replayedBefore, String message) {
        if (fenced(e)) {
            return new ReplayFencedException("another replay of group " + options.groupId() + " (transactional.id "
                    + options.transactionalId() + ") started and took over; this one stopped after writing back "
                    + replayedBefore + " dead letters (committed). Its last batch was rolled back and the other "
                    + "replay goes on from the group's committed offsets: nothing is written twice. (With no other "
                    + "replay running, the batch outlived the producer's transaction.timeout.ms.)",
                    replayedBefore, e);
        }
        return new DeadLetterException(message, e);
    }

    /** Whether {@code e}, a cause or a suppressed exception says that a newer producer of the transactional id fenced this one. */
    static boolean fenced(Throwable e) {
        return fenced(e, 0);
    }

    private static boolean fenced(Throwable e, int depth) {
        if (e == null || depth > 10) {
            return false;
        }
        if (e instanceof ProducerFencedException || e instanceof InvalidProducerEpochException) {
            return true;
        }
        for (Throwable suppressed : e.getSuppressed()) {
            if (fenced(suppressed, depth + 1)) {
                return true;
            }
        }
        return e.getCause() != e && fenced(e.getCause(), depth + 1);
    }
}
