package io.quotaflow.quota;

import java.util.function.IntFunction;

/** One admission of the {@link AdmissionLog}; {@code answeredNanos} 0 while unanswered, {@code expiresNanos} 0 for our own. */
final class AdmissionEntry {

    final long sequence;
    final long nanos;
    final Charge charge;
    final long expiresNanos;
    long answeredNanos;
    /** The tokens its answer said remained after the provider charged it; -1 until known. */
    long reportedTokens = -1;
    /** The charges of every call logged before this one and still in the log (plus those purged from the front). */
    Charge before;
    /** False once the entry has left the log (purged or removed); the answer index drops such entries lazily. */
    boolean live = true;

    AdmissionEntry(long sequence, long nanos, Charge charge, long expiresNanos) {
        this.sequence = sequence;
        this.nanos = nanos;
        this.charge = charge;
        this.expiresNanos = expiresNanos;
    }

    /** The position of {@code admission} among {@code size} entries ordered by sequence, or {@code -(its insertion point) - 1}. */
    static int bySequence(int size, IntFunction<AdmissionEntry> at, long admission) {
        int low = 0;
        int high = size - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            long s = at.apply(mid).sequence;
            if (s < admission) {
                low = mid + 1;
            } else if (s > admission) {
                high = mid - 1;
            } else {
                return mid;
            }
        }
        return -low - 1;
    }

    /** The first position of {@code ring} whose admission (or answer) time is above {@code nanos}; the ring is ordered by it. */
    static int firstAfter(Ring<AdmissionEntry> ring, long nanos, boolean byAnswer) {
        int low = 0;
        int high = ring.size();
        while (low < high) {
            int mid = (low + high) >>> 1;
            AdmissionEntry e = ring.get(mid);
            if ((byAnswer ? e.answeredNanos : e.nanos) > nanos) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }
}
