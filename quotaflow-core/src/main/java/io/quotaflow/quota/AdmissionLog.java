package io.quotaflow.quota;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;

/**
 * The limiter's recent admissions, oldest first: what the provider may not have counted yet when it
 * answered an earlier call, so that a re-seed from its headers subtracts them (see
 * {@link QuotaLimiter#reseed(RateLimitInfo, long, long, long)}). Own calls are kept two minutes;
 * calls inherited from a previous owner of the scope until their request timeout.
 */
final class AdmissionLog {

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

    /**
     * A moment the provider may have taken an answer's headers at, and the calls it may not have
     * counted then: a raise may credit refill only from that moment on and must subtract them.
     */
    record Snapshot(long atNanos, Charge uncounted) {
    }

    /**
     * Calls the provider's answer may not hold yet: what a lowering subtracts (refill credited from
     * the answer on), and the moments a raise must hold against (the lowest of them wins).
     */
    record Uncounted(Charge lower, List<Snapshot> raise) {

        Uncounted {
            raise = List.copyOf(raise);
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
        return new Uncounted(later, List.of(new Snapshot(sentAtNanos, later)));
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
        List<Snapshot> snapshots = new ArrayList<>(between.size() + 1);
        snapshots.add(new Snapshot(receivedNanos, always));
        between.sort(Comparator.comparingLong((Entry e) -> e.answeredNanos).reversed());
        Charge uncounted = always;
        for (int i = 0; i < between.size(); i++) {
            Entry e = between.get(i);
            uncounted = uncounted.plus(e.charge);
            boolean lastAtThisTime = i + 1 == between.size() || between.get(i + 1).answeredNanos != e.answeredNanos;
            if (lastAtThisTime) {
                snapshots.add(new Snapshot(e.answeredNanos, uncounted));
            }
        }
        return new Uncounted(lower, snapshots);
    }

    /**
     * What a lowering from the answer to {@code admission} subtracts: the calls admitted after it,
     * and, of those admitted before it, the ones still unanswered that were sent less than
     * {@code transitNanos} before it (they may have reached the provider after it: overtaken on the
     * way) or inherited from a previous owner. A call sent earlier than that reached the provider
     * before this one did, so the provider's headers for this one count it, whenever it took them;
     * however long its own answer takes (a large call answered after a small one sent later), it is
     * not subtracted again. Walks back from the newest end to {@code transitNanos} before the call
     * (the whole log while inherited calls count, or when the call is no longer logged). With
     * {@code answeredToo}, a call sent within the transit before it counts even when answered (its
     * answer says it reached the provider, not that it did so before this one).
     */
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

    /** What the calls sent after {@code fromNanos} up to and including {@code toNanos} cost in tokens. Walks back from the newest end. */
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

    /** When the call admitted as {@code admission} was admitted; {@link Long#MAX_VALUE} when it is no longer logged. */
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
