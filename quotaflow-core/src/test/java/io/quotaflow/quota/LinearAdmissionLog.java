package io.quotaflow.quota;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;

/**
 * The admission log as it was before it was indexed: every query walks the whole log. Kept as the
 * reference {@link AdmissionLogTest} compares the indexed {@link AdmissionLog} against.
 */
final class LinearAdmissionLog {

    private static final long KEEP_NANOS = Duration.ofMinutes(2).toNanos();

    /** One admission; {@code answeredNanos} 0 while unanswered, {@code expiresNanos} 0 for our own. */
    private static final class Entry {
        final long sequence;
        final long nanos;
        final Charge charge;
        final long expiresNanos;
        long answeredNanos;

        Entry(long sequence, long nanos, Charge charge, long expiresNanos) {
            this.sequence = sequence;
            this.nanos = nanos;
            this.charge = charge;
            this.expiresNanos = expiresNanos;
        }
    }

    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private long sequence;
    /** When the inherited calls stop counting (0: none held). */
    private long inheritedUntilNanos;

    /** Logs an admission of ours; returns its sequence number. */
    long add(long nowNanos, Charge charge) {
        entries.addLast(new Entry(++sequence, nowNanos, charge, 0));
        return sequence;
    }

    /** The previous owner's {@code calls} of {@code tokens} in all, counted until {@code expiresNanos}. */
    void inherit(int calls, long tokens, long nowNanos, long expiresNanos) {
        inheritedUntilNanos = Math.max(inheritedUntilNanos, expiresNanos);
        long each = tokens / calls;
        for (int i = 0; i < calls; i++) {
            // their split is unknown: each counts whole against the input and the output limits
            entries.addLast(new Entry(++sequence, nowNanos, Charge.unsplit(i == 0 ? tokens - each * (calls - 1) : each), expiresNanos));
        }
    }

    long last() {
        return sequence;
    }

    /** Removes the admission sent at {@code sentAtNanos} costing {@code tokens} (a refunded call). */
    void remove(long sentAtNanos, long tokens) {
        for (Iterator<Entry> it = entries.descendingIterator(); it.hasNext(); ) {
            Entry e = it.next();
            if (e.nanos == sentAtNanos && e.charge.tokens() == tokens) {
                it.remove();
                return;
            }
            if (e.nanos < sentAtNanos) {
                return;
            }
        }
    }

    void answered(long admission, long nowNanos) {
        for (Iterator<Entry> it = entries.descendingIterator(); it.hasNext(); ) {
            Entry e = it.next();
            if (e.sequence == admission) {
                e.answeredNanos = Math.max(1, nowNanos);
                return;
            }
            if (e.sequence < admission) {
                return;
            }
        }
    }

    /** Every call admitted after {@code sentAtNanos}, the headers taken when that call was admitted. */
    Uncounted after(long sentAtNanos) {
        Charge later = Charge.NONE;
        for (Iterator<Entry> it = entries.descendingIterator(); it.hasNext(); ) {
            Entry e = it.next();
            if (e.nanos <= sentAtNanos) {
                break;
            }
            later = later.plus(e.charge);
        }
        return new Uncounted(later, List.of(new Uncounted.Snapshot(sentAtNanos, later)));
    }

    /**
     * What the answer to {@code admission}, received at {@code receivedNanos}, may not hold.
     *
     * <p>Lowering: every other call still unanswered or admitted after it.
     *
     * <p>Raising: the provider took the headers at some moment {@code h} between this call's send
     * and its receipt, and had then counted exactly the calls that had reached it. A call answered
     * by {@code h} had (an answer's time here is when the stream thread saw it, never before it
     * arrived); any other call, sent before or after this one, may not have. So for each possible
     * {@code h} the uncounted calls are those not answered by it, and refill since {@code h} is the
     * provider's. Between two answers the set stays and the refill shrinks as {@code h} grows, so
     * the lowest bound is just before an answer or at the receipt: one snapshot for each answer
     * seen in between (the calls answered at or after it, with every still-unanswered one) and one
     * at the receipt (the still-unanswered ones and those answered after it). Calls answered
     * before this one was sent count for none.
     */
    Uncounted around(long admission, long receivedNanos) {
        long sentAt = admittedAt(admission);
        Charge lower = Charge.NONE;
        Charge always = Charge.NONE;
        List<Entry> between = new ArrayList<>();
        for (Entry e : entries) {
            if (e.sequence == admission) {
                continue;
            }
            if (e.sequence > admission || e.answeredNanos == 0) {
                lower = lower.plus(e.charge);
            }
            if (e.answeredNanos == 0 || e.answeredNanos > receivedNanos || sentAt == Long.MAX_VALUE) {
                always = always.plus(e.charge);
            } else if (e.answeredNanos > sentAt) {
                between.add(e);
            }
        }
        List<Uncounted.Snapshot> snapshots = new ArrayList<>(between.size() + 1);
        snapshots.add(new Uncounted.Snapshot(receivedNanos, always));
        between.sort(Comparator.comparingLong((Entry e) -> e.answeredNanos).reversed());
        Charge uncounted = always;
        for (int i = 0; i < between.size(); i++) {
            Entry e = between.get(i);
            uncounted = uncounted.plus(e.charge);
            boolean lastAtThisTime = i + 1 == between.size() || between.get(i + 1).answeredNanos != e.answeredNanos;
            if (lastAtThisTime) {
                snapshots.add(new Uncounted.Snapshot(e.answeredNanos, uncounted));
            }
        }
        return new Uncounted(lower, snapshots);
    }

    /** As {@link AdmissionLog#lowering}: walks back from the newest end to {@code transitNanos} before the call (the whole log while inherited calls count). */
    Charge lowering(long admission, long transitNanos, boolean answeredToo) {
        long sentAt = admittedAt(admission);
        boolean unknown = sentAt == Long.MAX_VALUE;
        long horizon = unknown ? Long.MIN_VALUE : sentAt - transitNanos;
        Charge lower = Charge.NONE;
        for (Iterator<Entry> it = entries.descendingIterator(); it.hasNext(); ) {
            Entry e = it.next();
            if (e.nanos < horizon && inheritedUntilNanos == 0) {
                break;
            }
            if (e.sequence == admission) {
                continue;
            }
            boolean unanswered = e.answeredNanos == 0 || answeredToo;
            if (e.sequence > admission || (unanswered && (e.nanos >= horizon || e.expiresNanos != 0))) {
                lower = lower.plus(e.charge);
            }
        }
        return lower;
    }

    /** As {@link AdmissionLog#sentBetween}: walks back from the newest end. */
    long sentBetween(long fromNanos, long toNanos) {
        long tokens = 0;
        for (Iterator<Entry> it = entries.descendingIterator(); it.hasNext(); ) {
            Entry e = it.next();
            if (e.nanos <= fromNanos) {
                break;
            }
            if (e.nanos <= toNanos) {
                tokens += e.charge.tokens();
            }
        }
        return tokens;
    }

    long sentAt(long admission) {
        return admittedAt(admission);
    }

    /** When the call admitted as {@code admission} was admitted (the newest end of the log is searched first). */
    private long admittedAt(long admission) {
        for (Iterator<Entry> it = entries.descendingIterator(); it.hasNext(); ) {
            Entry e = it.next();
            if (e.sequence <= admission) {
                return e.sequence == admission ? e.nanos : Long.MAX_VALUE;
            }
        }
        return Long.MAX_VALUE;
    }

    /** Drops own admissions older than two minutes and inherited calls past their timeout. */
    void purge(long nowNanos) {
        while (!entries.isEmpty() && entries.peekFirst().nanos < nowNanos - KEEP_NANOS) {
            entries.pollFirst();
        }
        if (inheritedUntilNanos != 0 && nowNanos >= inheritedUntilNanos) {
            entries.removeIf(e -> e.expiresNanos != 0);
            inheritedUntilNanos = 0;
        }
    }
}
