package io.quotaflow.publish;

import java.util.List;
import java.util.Objects;

/** What writing the tombstones for one ticket id did. */
public sealed interface CancelOutcome {

    /** The ticket id the tombstones are keyed by. */
    String id();

    /** The tombstones the broker acknowledged, in the order of the topics asked for. */
    List<Accepted> written();

    /**
     * Every tombstone asked for was acknowledged.
     *
     * @param id      the ticket id
     * @param written one per topic, in the order asked for
     */
    record Written(String id, List<Accepted> written) implements CancelOutcome {
        public Written {
            Objects.requireNonNull(id, "id");
            written = List.copyOf(written);
        }

        /** {@code tombstone T-1 tickets.interactive-0@4 tickets.standard-1@9}. */
        public String describe() {
            StringBuilder sb = new StringBuilder("tombstone ").append(id);
            written.forEach(a -> sb.append(' ').append(a.position()));
            return sb.toString();
        }
    }

    /**
     * At least one tombstone was not acknowledged.
     *
     * @param id      the ticket id
     * @param written those that were acknowledged (maybe none)
     * @param topic   the first topic whose send failed
     * @param error   why, in one line
     */
    record Failed(String id, List<Accepted> written, String topic, String error) implements CancelOutcome {
        public Failed {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(topic, "topic");
            Objects.requireNonNull(error, "error");
            written = List.copyOf(written);
        }

        /** {@code T-1: tombstone to tickets.bulk not acknowledged: TimeoutException: ...}. */
        public String describe() {
            return id + ": tombstone to " + topic + " not acknowledged: " + error;
        }
    }
}
