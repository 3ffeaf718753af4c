package io.quotaflow.quota;

import io.quotaflow.settings.QuotaSettings;

import java.util.List;
import java.util.OptionalLong;

/**
 * How a {@link QuotaLimiter} follows the provider: each answer's rate-limit headers re-seed its
 * per-minute buckets, less what the provider may not have counted yet ({@link AdmissionLog}), with
 * the moment the provider takes its headers ({@link HeaderTiming}) and the quickest recent transit
 * ({@link TransitBound}) learned along the way. Owned by its limiter; not thread-safe.
 */
final class ProviderReseed {

    private final QuotaSettings settings;
    private final List<MinuteBucket> buckets;
    private final AdmissionLog admissions;
    private final BurstControl burst;
    private final HeaderTiming timing = new HeaderTiming();
    private final TransitBound transit = new TransitBound();

    ProviderReseed(QuotaSettings settings, List<MinuteBucket> buckets, AdmissionLog admissions, BurstControl burst) {
        this.settings = settings;
        this.buckets = buckets;
        this.admissions = admissions;
        this.burst = burst;
    }

    /** A 429: what was learned of when the provider takes its headers is forgotten. */
    void forget() {
        timing.forget();
    }

    /**
     * Moves the local view to the provider's. The provider computed {@code remaining} when it
     * admitted the call we sent at {@code sentAtNanos}; since then it has refilled at its own rate,
     * and every call we admitted after that one is charged there too (or will be on arrival). A
     * level above that view is lowered to it; one below is raised to it (the provider said it has
     * room), within a capacity that grows to what the provider was seen to hold, never above its
     * reported limit × the safety factor, and not within a minute after a 429 ({@link BurstControl#clean}). {@code interactive}: whether
     * interactive work was admitted lately ({@link MinuteBucket#floor}). Each per-minute
     * bucket follows the headers of its own dimension, when present.
     */
    void reseed(RateLimitInfo info, long sentAtNanos, boolean interactive, long nowNanos) {
        if (info != null) {
            reseed(info, sentAtNanos, admissions.after(sentAtNanos), interactive, nowNanos);
        }
    }

    /**
     * As {@link #reseed(RateLimitInfo, long, boolean, long)}, for the call admitted as {@code admission}
     * whose answer arrived at {@code receivedNanos} (the latest moment the provider can have taken
     * its headers). Lowering: the provider may not have counted a call admitted after this one, nor
     * one sent just before it that arrived after it (overtaken on the way), so those are subtracted,
     * with refill credited from the receipt. Raising needs more care, since requests overtake each other
     * on the way: the headers were taken at some moment between this call's send and its receipt,
     * and only the calls answered by then had certainly reached the provider; so a raise holds
     * against every such moment (see {@link AdmissionLog#around}), crediting refill from it no
     * higher than the most the provider was seen to hold (a full bucket does not refill).
     *
     * <p>A call sent more than a transit before this one reached the provider first, so
     * the provider counted it in this answer's headers, whenever it took them, even when its own
     * answer is still out (a large call answered after a small one sent later): the lowering does not
     * subtract it again (see {@link AdmissionLog#lowering}). Subtracting every unanswered call would
     * lower the level by every slow call in the air each time a quick one comes back: seconds without
     * a call while the provider's bucket is full. The transit is {@link TransitBound}'s: the quickest
     * recent round trip, at most 500 ms.
     *
     * <p>Once {@link HeaderTiming} has learned that the provider takes its headers when it admits a
     * call (as real providers do), that moment is known: the level follows it both ways, refill
     * credited from 500 ms after its send (or its receipt, when sooner) and only the calls admitted
     * after it or sent less than 500 ms before it subtracted (unless their own headers place them before
     * it: {@link AdmissionLog#loweringAtAdmission}), as {@link #reseed(RateLimitInfo, long, boolean, long)}
     * does; the transit stays at its bound there, the margin should the learned moment be wrong. With
     * two-second calls the "anywhere in between" view above sits about two seconds of refill below the
     * provider's, which would keep the provider's starting bucket unclaimed and the limit at the safety factor.
     */
    void reseed(RateLimitInfo info, long admission, long receivedNanos, boolean interactive, long nowNanos) {
        if (info == null) {
            return;
        }
        long sentAt = admissions.sentAt(admission);
        if (sentAt <= receivedNanos) {
            transit.observe(receivedNanos - sentAt);
        }
        long transitNanos = transit.nanos();
        OptionalLong remainingTokens = info.remainingTokens();
        remainingTokens.ifPresent(r -> admissions.reported(admission, r));
        if (sentAt <= receivedNanos && remainingTokens.isPresent()) {
            double rate = info.limitTokens().orElse(settings.tpm()) / 60.0;
            timing.observe(new HeaderTiming.Answer(remainingTokens.getAsLong(), sentAt, receivedNanos), admissions::sentBetween, rate);
        }
        if (timing.moment() == HeaderTiming.Moment.ADMISSION && sentAt <= receivedNanos) {
            // a snapshot taken when the provider admitted the call: refill since then is the provider's;
            // only the calls admitted after it or sent within a transit before it are missing (see
            // AdmissionLog#lowering), with the transit at its bound; refill counts from 500 ms after the send at the
            // earliest. Not the learned transit: should the moment be mistaken for admission (headers taken later), the
            // bound's margin is what keeps the re-seed below the provider (RacingProviderPropertiesTest finds 429s without it)
            // of those sent within the bound before it, the ones whose own headers place them before it are counted
            Charge uncounted = admissions.loweringAtAdmission(admission, TransitBound.MAX_NANOS, remainingTokens.orElse(0),
                    info.limitTokens().orElse(settings.tpm()));
            long at = Math.min(sentAt + TransitBound.MAX_NANOS, receivedNanos);
            reseed(info, at, new Uncounted(uncounted, List.of(new Uncounted.Snapshot(at, uncounted))), interactive, nowNanos);
        } else {
            Uncounted around = admissions.around(admission, receivedNanos);
            Charge lower = admissions.lowering(admission, transitNanos, false);
            reseed(info, receivedNanos, new Uncounted(lower, around.raise()), interactive, nowNanos);
        }
    }

    /** When the provider takes its headers, as learned so far. */
    HeaderTiming.Moment headerMoment() {
        return timing.moment();
    }

    private void reseed(RateLimitInfo info, long sentAtNanos, Uncounted later, boolean interactive, long nowNanos) {
        boolean mayRaise = burst.clean(nowNanos);
        for (MinuteBucket b : buckets) {
            QuotaDimension d = b.dimension();
            OptionalLong remaining = info.remaining(d);
            if (remaining.isPresent()) {
                b.follow(new MinuteBucket.Report(remaining.getAsLong(), info.limit(d).orElse(b.limit()), sentAtNanos),
                        d.of(later.lower()), later.raise(), mayRaise, interactive, burst.scale(), nowNanos);
            }
        }
    }
}
