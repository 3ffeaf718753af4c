package io.quotaflow.quota;

import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.records.Priority;

import java.util.List;

/**
 * One per-minute limit of a scope (requests, tokens, or separate input or output tokens): a
 * {@link ContinuousBucket} refilled at the limit × the safety factor, holding
 * {@code quota.burst-seconds} of refill, starting empty, with the interactive reserve and the
 * provider-following re-seed every per-minute dimension shares (docs/design.md, "Limiter").
 */
final class MinuteBucket {

    /** The most of a bucket's capacity the reserve, with what lowerings added, holds back from bulk work. */
    static final double MAX_FLOOR_SHARE = 0.5;
    static final long RESERVE_EXTRA_HALF_LIFE_NANOS = 60_000_000_000L;

    private final QuotaDimension dimension;
    /** The limit as configured (or the built-in default). */
    private final long configured;
    /** Whether {@link #configured} is a ceiling: the provider's headers may lower the limit, never raise it above that. */
    private final boolean ceiling;
    /** The limit in force: the configured one until the provider announces its own ({@link #adopt}). */
    private long limit;
    private final QuotaSettings settings;
    /** The refill: the limit in force × the safety factor, per second. */
    private double ratePerSecond;
    private double baseCapacity;
    private final ContinuousBucket bucket;
    /**
     * Under a ceiling, the level our own admissions alone leave (refilled at the limit in force, never
     * re-seeded from the provider): a raise from the provider's headers never goes above it, since a
     * provider with more room than the ceiling says nothing of the operator's budget. Null otherwise.
     */
    private final ContinuousBucket own;
    /** The most the provider reported remaining since the last 429: its bucket holds at least that. */
    private long providerHeld;
    /**
     * What bulk work leaves unspent above the reserve because re-seeds lately lowered the level
     * below it ({@link #follow}): a decaying sum, so the reserve holds through the next lowering of
     * the same size.
     */
    private double reserveExtra;
    private long reserveExtraAtNanos;

    /** A bucket for {@code dimension} when {@code limited}, else null (no limit: nothing to hold a call back). */
    static MinuteBucket of(boolean limited, QuotaDimension dimension, long limitPerMinute, boolean ceiling, QuotaSettings settings,
                           long nowNanos) {
        return limited ? new MinuteBucket(dimension, limitPerMinute, ceiling, settings, nowNanos) : null;
    }

    /**
     * @param ceiling whether {@code limitPerMinute} was set by the operator: then the provider's announced limit may
     *                lower the limit in force, never raise it above {@code limitPerMinute}, and the capacity stays the
     *                local burst, so no 60-second window admits more than the limit plus that burst
     */
    MinuteBucket(QuotaDimension dimension, long limitPerMinute, boolean ceiling, QuotaSettings settings, long nowNanos) {
        this.dimension = dimension;
        this.configured = limitPerMinute;
        this.ceiling = ceiling;
        this.limit = limitPerMinute;
        this.settings = settings;
        this.ratePerSecond = limitPerMinute * settings.safetyFactor() / 60.0;
        // at least one unit of capacity, or a low limit could never admit anything
        this.baseCapacity = Math.max(1.0, ratePerSecond * settings.burstSeconds());
        this.bucket = new ContinuousBucket(ratePerSecond, baseCapacity, 0, nowNanos);
        this.own = ceiling ? new ContinuousBucket(ratePerSecond, baseCapacity, 0, nowNanos) : null;
    }

    QuotaDimension dimension() {
        return dimension;
    }

    /** The limit in force: what the bucket refills at (before the safety factor), as {@code /status} and the metrics show it. */
    long limit() {
        return limit;
    }

    /**
     * The provider announced {@code announced} per minute: the limit in force becomes it, or, under a
     * ceiling, the lower of it and the configured limit. The refill and the local burst follow it; a
     * ceiling's capacity stays the local burst.
     */
    private void adopt(long announced, double burstScale, long nowNanos) {
        long next = ceiling ? Math.min(configured, announced) : announced;
        if (next <= 0 || next == limit) {
            return;
        }
        limit = next;
        ratePerSecond = next * settings.safetyFactor() / 60.0;
        baseCapacity = Math.max(1.0, ratePerSecond * settings.burstSeconds());
        double burst = Math.max(1.0, baseCapacity * burstScale);
        double capacity = ceiling ? burst : Math.max(burst, Math.min(bucket.capacity(), next * settings.safetyFactor()));
        both(b -> {
            b.setRate(ratePerSecond, nowNanos);
            b.setCapacity(capacity, nowNanos);
        });
    }

    /** {@code change} applied to the bucket and, under a ceiling, to {@link #own}. */
    private void both(java.util.function.Consumer<ContinuousBucket> change) {
        change.accept(bucket);
        if (own != null) {
            change.accept(own);
        }
    }

    /**
     * The level below which only interactive work may spend: a fraction of the local burst (a few
     * seconds of refill), which is what an interactive ticket would otherwise wait for. A capacity
     * raised to what the provider holds (a full minute, say) does not raise the reserve with it:
     * a quarter of a minute held back for interactive tickets that may never come is a quarter of
     * the provider's starting level left unused over a whole run.
     */
    double floor(Priority priority, double burstScale) {
        return floor(priority, burstScale, Long.MAX_VALUE, true);
    }

    /**
     * The floor for a call after which {@code after} units of work of classes below interactive still
     * wait: what lowerings added to the reserve is held back only from work that waits after it. The
     * extra exists so that the reserve holds through the next lowering, which delays every bulk call by
     * its refill; on the last calls of a backlog that delay is the run's end, for certain, against an
     * interactive ticket that may come meanwhile and wait at most for the margin's refill, so those
     * calls spend the extra. The reserve itself they leave while interactive work was admitted lately
     * ({@code interactiveAbout}); otherwise it too is held back only from work that waits after the call,
     * so a backlog's last calls spend it and the first interactive ticket after them waits at most for
     * its refill (a quarter of the local burst at the defaults), where holding it would leave it unused
     * at the end of every bulk run (docs/design.md, "Limiter").
     */
    double floor(Priority priority, double burstScale, long after, boolean interactiveAbout) {
        if (priority == Priority.INTERACTIVE) {
            return 0;
        }
        double reserve = reserve(burstScale);
        double held = interactiveAbout ? reserve : Math.min(reserve, Math.max(0, after));
        double extra = Math.min(reserveExtra, Math.max(0, bucket.capacity() * MAX_FLOOR_SHARE - reserve));
        return held + Math.min(extra, Math.max(0, after));
    }

    /** The reserve without what lowerings added to it: a fraction of the local burst. */
    private double reserve(double burstScale) {
        return Math.min(bucket.capacity(), Math.max(1.0, baseCapacity * burstScale)) * settings.reserveFraction();
    }

    /**
     * A re-seed lowered the level to {@code level} while interactive work is about: whatever of the
     * reserve it took, bulk leaves unspent from now on, on top of the reserve. The provider's headers
     * are a snapshot whose uncounted calls are subtracted with a margin (see
     * {@link QuotaLimiter#reseed(RateLimitInfo, long, long, long)}), so a lowering regularly takes
     * the level a call or two below what the provider holds, and with it the reserve: an interactive
     * ticket then waited for the refill, up to 0.8 s in the benchmark's (x), until the next answer
     * raised the level again. The sum halves every {@link #RESERVE_EXTRA_HALF_LIFE_NANOS} so that a
     * burst of lowerings is forgotten once they stop.
     */
    private void lowered(double before, double level, double burstScale, long nowNanos) {
        decayReserveExtra(nowNanos);
        // how much deeper into the reserve this lowering went: one excursion, lowered by several
        // answers in a row, counts once, at its deepest
        double reserve = reserve(burstScale);
        double taken = Math.max(0, reserve - level) - Math.max(0, reserve - before);
        if (taken > 0) {
            reserveExtra = Math.min(bucket.capacity() * MAX_FLOOR_SHARE, reserveExtra + taken);
        }
    }

    private void decayReserveExtra(long nowNanos) {
        if (reserveExtra > 0 && nowNanos > reserveExtraAtNanos) {
            reserveExtra *= Math.pow(0.5, (double) (nowNanos - reserveExtraAtNanos) / RESERVE_EXTRA_HALF_LIFE_NANOS);
        }
        reserveExtraAtNanos = Math.max(reserveExtraAtNanos, nowNanos);
    }

    /** Whether {@code charge} fits above the floor of {@code priority} with {@code after} waiting behind it. */
    boolean canTake(Charge charge, Charge after, Priority priority, double burstScale, boolean interactiveAbout, long nowNanos) {
        decayReserveExtra(nowNanos);
        return bucket.canTake(dimension.of(charge), floor(priority, burstScale, dimension.of(after), interactiveAbout), nowNanos);
    }

    void take(Charge charge, long nowNanos) {
        both(b -> b.take(dimension.of(charge), nowNanos));
    }

    void giveBack(Charge charge, long nowNanos) {
        both(b -> b.giveBack(dimension.of(charge), nowNanos));
    }

    long nanosUntil(Charge charge, Charge after, Priority priority, double burstScale, boolean interactiveAbout, long nowNanos) {
        decayReserveExtra(nowNanos);
        return bucket.nanosUntil(dimension.of(charge), floor(priority, burstScale, dimension.of(after), interactiveAbout), nowNanos);
    }

    /** The largest cost {@code priority} can take without waiting for a completely full bucket. */
    long maxRegular(Priority priority, double burstScale) {
        return (long) Math.floor(bucket.capacity() - floor(priority, burstScale));
    }

    /**
     * A new owner's start ({@link QuotaLimiter#takeOver}). A learned limit adopts the one its previous owner had in force
     * ({@code recorded}, 0: not known), as if announced; a ceiling keeps its configured value, which a roll-out may have
     * raised (its headers lower it again if the provider says less). Then the level rises by {@code nanos} of refill at the
     * limit × the safety factor, less {@code spent} units, never above the local burst, and only to a limit known (a
     * ceiling, or recorded): a learned limit not yet learned is its default, which may be far above the key's, and its
     * first calls would go out at that rate until an answer said otherwise.
     */
    void takeOver(long recorded, long nanos, double spent, double burstScale, long nowNanos) {
        if (recorded > 0 && !ceiling) {
            adopt(recorded, burstScale, nowNanos);
        }
        double refill = ratePerSecond * (nanos / 1e9) - spent;
        if ((ceiling || recorded > 0) && refill > 0) {
            double most = Math.max(1.0, baseCapacity * burstScale);
            both(b -> b.raiseTo(Math.max(b.available(nowNanos), Math.min(most, b.available(nowNanos) + refill)), nowNanos));
        }
    }

    void empty(long nowNanos) {
        both(b -> b.clampTo(0, nowNanos));
    }

    void scaleBurst(double burstScale, long nowNanos) {
        both(b -> b.setCapacity(Math.max(1.0, baseCapacity * burstScale), nowNanos));
    }

    double available(long nowNanos) {
        return bucket.available(nowNanos);
    }

    double capacity() {
        return bucket.capacity();
    }

    /** The refill a second: the limit in force × the safety factor. */
    double ratePerSecond() {
        return ratePerSecond;
    }

    /**
     * What one answer's headers said of this dimension: {@code remaining} of {@code limit}, taken
     * at {@code atNanos} at the latest.
     */
    record Report(long remaining, long limit, long atNanos) {
    }

    /** Forgets the most the provider was seen to hold (after a 429: the provider knows better). */
    void forgetProvider() {
        providerHeld = 0;
    }

    /**
     * Moves the level to the provider's {@code report}: lowered to its remaining plus refill since
     * minus {@code laterLowering}, or raised (when {@code mayRaise}) to the lowest of the levels the
     * provider certainly had for each moment it may have taken the headers at ({@code raises}: its
     * remaining plus refill since that moment, no higher than the most it was seen to hold, minus the
     * calls it may not have counted then), never above the lowering's level, within a capacity that
     * grows to what the provider was seen to hold, never above its limit × the safety factor. The
     * report's limit becomes the limit in force first ({@link #adopt}); under a ceiling the capacity
     * does not grow.
     */
    void follow(Report report, long laterLowering, List<Uncounted.Snapshot> raises, boolean mayRaise, boolean interactiveAbout,
                double burstScale, long nowNanos) {
        adopt(report.limit(), burstScale, nowNanos);
        // refill at our own (safety-scaled) rate: the answer left the provider a little before we
        // measured, so its full rate would over-count that moment
        double ratePerNano = limit * settings.safetyFactor() / 60.0 / 1e9;
        long remaining = report.remaining();
        double lower = remaining + ratePerNano * Math.max(0, nowNanos - report.atNanos()) - laterLowering;
        if (lower < bucket.available(nowNanos)) {
            if (interactiveAbout) {
                lowered(bucket.available(nowNanos), lower, burstScale, nowNanos);
            }
            bucket.clampTo(lower, nowNanos);
            return;
        }
        if (!mayRaise) {
            return;
        }
        providerHeld = Math.max(providerHeld, remaining);
        // a ceiling keeps the local burst: what the provider's bucket holds beyond it is not ours to spend
        double most = ceiling ? baseCapacity * burstScale : Math.max(baseCapacity * burstScale, limit * settings.safetyFactor());
        // the provider's bucket holds at least what it reported remaining
        double capacity = Math.min(most, Math.max(bucket.capacity(), remaining * settings.safetyFactor()));
        if (capacity > bucket.capacity()) {
            bucket.setCapacity(capacity, nowNanos);
        }
        double target = lower;
        for (Uncounted.Snapshot s : raises) {
            double then = remaining + ratePerNano * Math.max(0, nowNanos - s.atNanos());
            // refill beyond the most it was seen to hold may have been lost to a full bucket
            double certain = Math.min(then, Math.max(remaining, providerHeld)) - dimension.of(s.uncounted());
            target = Math.min(target, certain);
        }
        if (own != null) {
            target = Math.min(target, own.available(nowNanos));
        }
        bucket.raiseTo(Math.min(target, bucket.capacity()), nowNanos);
    }
}
