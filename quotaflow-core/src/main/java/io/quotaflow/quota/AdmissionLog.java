package io.quotaflow.quota;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The limiter's recent admissions, oldest first: what the provider may not have counted yet when it
 * answered an earlier call, so that a re-seed from its headers subtracts them (see
 * {@link QuotaLimiter#reseed(RateLimitInfo, long, long, long)}). Own calls are kept two minutes;
 * calls inherited from a previous owner of the scope until they surely reached the provider.
 *
 * <p>Indexed, since an answer's re-seed runs on the stream thread and the log holds two minutes of
 * admissions (about 20,000 at 10,000 RPM): the calls are kept in admission order with the sum of
 * every charge before each one, so a sum over the calls after a point is a subtraction; the
 * unanswered ones (the calls in flight and the inherited ones) are listed apart; and the answered
 * ones are kept in the order of their answers. An answer's look-up ({@link #around}) then costs a
 * binary search, plus the calls still out, plus the answers that arrived while it was out (which it
 * must list): never a walk over the whole log. Refunds and the end of inherited calls remove calls
 * from inside the log and cost a pass over the calls after them; both are rare.
 */
final class AdmissionLog {

    private static final long KEEP_NANOS = Duration.ofMinutes(2).toNanos();

    /**
     * The least share of our charge for a call that the provider's own count is taken to be, when
     * its figures order two calls ({@link #loweringAtAdmission}): a tokenizer that counts less than
     * half of ours, {@code max_tokens} included, is not one we have met.
     */
    static final double OWN_COST_SHARE = 0.5;

    /**
     * The refill rate, over the reported limit's, that ordering two calls by their headers allows the
     * provider ({@link #loweringAtAdmission}): a margin should it refill faster than it says.
     */
    static final double ORDERING_RATE_MARGIN = 1.5;

    /** Every call in the log, by sequence (and so by admission time). */
    private final Ring<AdmissionEntry> entries = new Ring<>();
    /** The unanswered calls in the log, by sequence. */
    private final List<AdmissionEntry> open = new ArrayList<>();
    /** The calls inherited from a previous owner, by sequence; entries that left the log are skipped. */
    private final List<AdmissionEntry> inherited = new ArrayList<>();
    /** The answered calls, by the time of their answers; entries that left the log are skipped and dropped from the front. */
    private final Ring<AdmissionEntry> answers = new Ring<>();
    /** The charges of every call logged so far (the next call's {@link AdmissionEntry#before}). */
    private Charge logged = Charge.NONE;
    private long sequence;
    /** When the inherited calls stop counting (0: none held). */
    private long inheritedUntilNanos;

    /** Logs an admission of ours; returns its sequence number. */
    long add(long nowNanos, Charge charge) {
        append(new AdmissionEntry(++sequence, nowNanos, charge, 0));
        return sequence;
    }

    /** The previous owner's {@code calls} of {@code tokens} in all, counted until {@code expiresNanos}. */
    void inherit(int calls, long tokens, long nowNanos, long expiresNanos) {
        inheritedUntilNanos = Math.max(inheritedUntilNanos, expiresNanos);
        long each = tokens / calls;
        for (int i = 0; i < calls; i++) {
            // their split is unknown: each counts whole against the input and the output limits
            AdmissionEntry e = new AdmissionEntry(++sequence, nowNanos, Charge.unsplit(i == 0 ? tokens - each * (calls - 1) : each), expiresNanos);
            append(e);
            inherited.add(e);
        }
    }

    private void append(AdmissionEntry e) {
        e.before = logged;
        logged = logged.plus(e.charge);
        entries.addLast(e);
        open.add(e);
    }

    long last() {
        return sequence;
    }

    /** How many calls the log holds (its bound: two minutes of admissions, plus the inherited ones). */
    int size() {
        return entries.size();
    }

    /** Removes the admission sent at {@code sentAtNanos} costing {@code tokens} (a refunded call). */
    void remove(long sentAtNanos, long tokens) {
        for (int i = entries.size() - 1; i >= 0; i--) {
            AdmissionEntry e = entries.get(i);
            if (e.nanos == sentAtNanos && e.charge.tokens() == tokens) {
                entries.remove(i);
                leave(e);
                for (int j = i; j < entries.size(); j++) {
                    AdmissionEntry later = entries.get(j);
                    later.before = minus(later.before, e.charge);
                }
                logged = minus(logged, e.charge);
                return;
            }
            if (e.nanos < sentAtNanos) {
                return;
            }
        }
    }

    void answered(long admission, long nowNanos) {
        int index = indexOf(admission);
        if (index < 0) {
            return;
        }
        AdmissionEntry e = entries.get(index);
        if (e.answeredNanos == 0) {
            open.remove(openIndexOf(e.sequence));
        } else {
            removeAnswer(e);
        }
        e.answeredNanos = Math.max(1, nowNanos);
        int at = answers.size();
        while (at > 0 && answers.get(at - 1).answeredNanos > e.answeredNanos) {
            at--;
        }
        answers.insert(at, e);
    }

    /** The answer to {@code admission} reported {@code remainingTokens} left once the provider had charged it. */
    void reported(long admission, long remainingTokens) {
        int index = indexOf(admission);
        if (index >= 0) {
            entries.get(index).reportedTokens = remainingTokens;
        }
    }

    /**
     * As {@link #lowering lowering(admission, transitNanos, true)}, less the calls sent within the
     * transit before it that the provider's own figures place before it. Its answer reported
     * {@code remainingTokens} left once the provider had charged it (no earlier than its send). A
     * call {@code i} charged after it would have found at most that plus the refill until its own
     * charge (no later than its answer reached us), and charged its own cost: it would report at most
     * {@code remainingTokens + rate × (answered(i) − sent) − cost(i)}. A call whose answer reported
     * more was charged before it, so these headers count it; so was a call answered before this one
     * was sent, whatever it reported. The rate is {@code limitPerMinute} × {@link #ORDERING_RATE_MARGIN}
     * (should the provider refill faster than it says), {@code cost(i)} is counted at
     * {@link #OWN_COST_SHARE} of our charge (the provider counts the prompt with its own tokenizer),
     * and a level of 0 (perhaps a bucket in debt reported as empty) or a limit of 0 orders nothing.
     * Subtracting every call sent within the transit would subtract the calls a tick starts
     * together from each other's answers, whatever order the provider charged them in: the level
     * would sit calls below the provider's while its bucket filled and lost its refill.
     *
     * <p>Costs {@link #lowering}'s, plus a pass over the calls sent within the transit before it.
     */
    Charge loweringAtAdmission(long admission, long transitNanos, long remainingTokens, long limitPerMinute) {
        int index = indexOf(admission);
        Charge lower = lowering(index, admission, transitNanos, true);
        if (index < 0 || remainingTokens <= 0 || limitPerMinute <= 0) {
            return lower;
        }
        double ratePerNano = limitPerMinute * ORDERING_RATE_MARGIN / 60.0 / 1e9;
        AdmissionEntry call = entries.get(index);
        for (int i = AdmissionEntry.firstAfter(entries, call.nanos - transitNanos - 1, false); i < index; i++) {
            AdmissionEntry e = entries.get(i);
            if (e.answeredNanos != 0 && (e.answeredNanos < call.nanos || chargedBefore(e, call, remainingTokens, ratePerNano))) {
                lower = minus(lower, e.charge);
            }
        }
        return lower;
    }

    /** Whether {@code e}'s own answer says the provider charged it before {@code call}, whose answer reported {@code remainingTokens}. */
    private static boolean chargedBefore(AdmissionEntry e, AdmissionEntry call, long remainingTokens, double ratePerNano) {
        return e.reportedTokens > 0 && e.reportedTokens > remainingTokens + ratePerNano * (e.answeredNanos - call.nanos)
                - OWN_COST_SHARE * e.charge.tokens();
    }

    /** Every call admitted after {@code sentAtNanos}, the headers taken when that call was admitted. */
    Uncounted after(long sentAtNanos) {
        Charge later = suffix(AdmissionEntry.firstAfter(entries, sentAtNanos, false));
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
        int index = indexOf(admission);
        Charge lower = suffix(index >= 0 ? index + 1 : -index - 1);
        for (AdmissionEntry e : open) {
            if (e.sequence >= admission) {
                break;
            }
            lower = lower.plus(e.charge);
        }
        if (index < 0) {
            // its send time is unknown: every call may be uncounted
            return new Uncounted(lower, List.of(new Uncounted.Snapshot(receivedNanos, suffix(0))));
        }
        int firstLater = AdmissionEntry.firstAfter(answers, receivedNanos, true);
        Charge always = Charge.NONE;
        for (AdmissionEntry e : open) {
            if (e.sequence != admission) {
                always = always.plus(e.charge);
            }
        }
        for (int i = firstLater; i < answers.size(); i++) {
            AdmissionEntry e = answers.get(i);
            if (e.live && e.sequence != admission) {
                always = always.plus(e.charge);
            }
        }
        return new Uncounted(lower, snapshots(admission, entries.get(index).nanos, receivedNanos, always, firstLater));
    }

    /**
     * What a lowering from the answer to {@code admission} subtracts: the calls admitted after it,
     * and, of those admitted before it, the ones still unanswered that were sent less than
     * {@code transitNanos} before it (they may have reached the provider after it: overtaken on the
     * way) or inherited from a previous owner. A call sent earlier than that reached the provider
     * before this one did, so the provider's headers for this one count it, whenever it took them;
     * however long its own answer takes (a large call answered after a small one sent later), it is
     * not subtracted again. With {@code answeredToo}, a call sent within the transit before it counts
     * even when answered (its answer says it reached the provider, not that it did so before this
     * one). When the call is no longer logged every other unanswered call counts (every call with
     * {@code answeredToo}).
     *
     * <p>Costs a binary search by sequence and one by time, plus the unanswered calls sent within the
     * transit (with {@code answeredToo}, a subtraction of prefix sums instead), plus the inherited
     * calls while any count.
     */
    Charge lowering(long admission, long transitNanos, boolean answeredToo) {
        return lowering(indexOf(admission), admission, transitNanos, answeredToo);
    }

    /** {@link #lowering(long, long, boolean)} for the call at {@code index} of the log (as {@link #indexOf} gives it). */
    private Charge lowering(int index, long admission, long transitNanos, boolean answeredToo) {
        if (index < 0) {
            if (answeredToo) {
                return suffix(0);
            }
            Charge lower = suffix(-index - 1);
            for (AdmissionEntry e : open) {
                if (e.sequence >= admission) {
                    break;
                }
                lower = lower.plus(e.charge);
            }
            return lower;
        }
        AdmissionEntry call = entries.get(index);
        int first = AdmissionEntry.firstAfter(entries, call.nanos - transitNanos - 1, false);
        long firstSequence = entries.get(first).sequence;
        Charge lower = suffix(index + 1);
        if (answeredToo) {
            lower = lower.plus(minus(call.before, entries.get(first).before));
        } else {
            int o = AdmissionEntry.bySequence(open.size(), open::get, firstSequence);
            for (int i = o < 0 ? -o - 1 : o; i < open.size() && open.get(i).sequence < admission; i++) {
                lower = lower.plus(open.get(i).charge);
            }
        }
        if (inheritedUntilNanos != 0) {
            // inherited calls count however early they were sent
            for (AdmissionEntry e : inherited) {
                if (e.live && e.expiresNanos != 0 && e.sequence < firstSequence && (answeredToo || e.answeredNanos == 0)) {
                    lower = lower.plus(e.charge);
                }
            }
        }
        return lower;
    }

    /** What the calls sent after {@code fromNanos} up to and including {@code toNanos} cost in tokens: two binary searches by time. */
    long sentBetween(long fromNanos, long toNanos) {
        if (toNanos <= fromNanos) {
            return 0;
        }
        return suffix(AdmissionEntry.firstAfter(entries, fromNanos, false)).tokens() - suffix(AdmissionEntry.firstAfter(entries, toNanos, false)).tokens();
    }

    /** When the call admitted as {@code admission} was admitted; {@link Long#MAX_VALUE} when it is no longer logged. */
    long sentAt(long admission) {
        int index = indexOf(admission);
        return index < 0 ? Long.MAX_VALUE : entries.get(index).nanos;
    }

    /**
     * The receipt's snapshot ({@code always} uncounted), then one for each answer time between the
     * send and the receipt, latest first: the answers before position {@code firstLater} of the
     * answer index and after {@code sentAt}.
     */
    private List<Uncounted.Snapshot> snapshots(long admission, long sentAt, long receivedNanos, Charge always, int firstLater) {
        List<Uncounted.Snapshot> snapshots = new ArrayList<>();
        snapshots.add(new Uncounted.Snapshot(receivedNanos, always));
        Charge uncounted = always;
        long at = 0;
        boolean pending = false;
        for (int i = firstLater - 1; i >= 0 && answers.get(i).answeredNanos > sentAt; i--) {
            AdmissionEntry e = answers.get(i);
            if (!e.live || e.sequence == admission) {
                continue;
            }
            if (pending && e.answeredNanos != at) {
                snapshots.add(new Uncounted.Snapshot(at, uncounted));
            }
            uncounted = uncounted.plus(e.charge);
            at = e.answeredNanos;
            pending = true;
        }
        if (pending) {
            snapshots.add(new Uncounted.Snapshot(at, uncounted));
        }
        return snapshots;
    }

    /** Drops own admissions older than two minutes and inherited calls past their timeout. */
    void purge(long nowNanos) {
        while (!entries.isEmpty() && entries.first().nanos < nowNanos - KEEP_NANOS) {
            leave(entries.removeFirst());
        }
        if (inheritedUntilNanos != 0 && nowNanos >= inheritedUntilNanos) {
            dropInherited();
            inheritedUntilNanos = 0;
        }
        while (!answers.isEmpty() && !answers.first().live) {
            answers.removeFirst();
        }
    }

    private void dropInherited() {
        List<AdmissionEntry> kept = new ArrayList<>(entries.size());
        Charge dropped = Charge.NONE;
        for (int i = 0; i < entries.size(); i++) {
            AdmissionEntry e = entries.get(i);
            if (e.expiresNanos != 0) {
                dropped = dropped.plus(e.charge);
                leave(e);
            } else {
                e.before = minus(e.before, dropped);
                kept.add(e);
            }
        }
        logged = minus(logged, dropped);
        inherited.clear();
        entries.clear();
        kept.forEach(entries::addLast);
    }

    /** {@code e} has left the log. */
    private void leave(AdmissionEntry e) {
        e.live = false;
        if (e.answeredNanos == 0) {
            open.remove(openIndexOf(e.sequence));
        }
    }

    private void removeAnswer(AdmissionEntry e) {
        for (int i = answers.size() - 1; i >= 0; i--) {
            if (answers.get(i) == e) {
                answers.remove(i);
                return;
            }
        }
    }

    /** The charges of the calls from position {@code from} of the log to its end. */
    private Charge suffix(int from) {
        return from >= entries.size() ? Charge.NONE : minus(logged, entries.get(from).before);
    }

    /** The position of {@code admission} in the log, or {@code -(the position it would have) - 1}. */
    private int indexOf(long admission) {
        return AdmissionEntry.bySequence(entries.size(), entries::get, admission);
    }

    private int openIndexOf(long admission) {
        int index = AdmissionEntry.bySequence(open.size(), open::get, admission);
        if (index < 0) {
            throw new IllegalStateException("admission " + admission + " is not open");
        }
        return index;
    }

    private static Charge minus(Charge a, Charge b) {
        return new Charge(a.requests() - b.requests(), a.tokens() - b.tokens(), a.inputTokens() - b.inputTokens(),
                a.outputTokens() - b.outputTokens());
    }
}
