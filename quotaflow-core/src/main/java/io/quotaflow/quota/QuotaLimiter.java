package io.quotaflow.quota;

import io.quotaflow.settings.DailyLimits;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.records.Priority;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Admits calls of one quota scope against every budget its route sets: requests per minute and tokens per minute,
 * optionally separate input (prompt) and output ({@code max_tokens}) tokens per minute, each a continuously refilled
 * {@link MinuteBucket} scaled by the safety factor and holding only a few seconds of burst, and optionally the day's
 * requests and tokens ({@link DailyBudget}). A call goes only when every one of them allows it. Classes below
 * interactive may spend each per-minute bucket only down to a reserve, so interactive work never waits for a refill
 * that bulk work used up. A cooldown (after a 429) stops all admission.
 *
 * <p>The per-minute buckets start empty, and a new owner of the scope (a restart, a task moved to another instance)
 * credits only the refill it can prove ({@link #takeOver}): since the previous owner's last recorded admission (without
 * one, since this instance started), at most the group's session timeout.
 *
 * <p>It listens to the provider: {@link #reseed} moves the local view to what the provider's {@code remaining}
 * headers imply, down and (outside a minute after a 429) up: a provider whose bucket holds more than our few seconds
 * (a full minute, say) is used as far as it says, never above its reported limit; one that enforces short slices
 * reports small levels and is never exceeded. A refused call ({@link #refund}) gives its reservation back. Each 429
 * halves the burst allowance, forgets what was learned of the provider's bucket, and the allowance grows back by an
 * eighth after every clean minute. A limit the operator set ({@link io.quotaflow.settings.LimitOrigin#SET}) is a
 * ceiling: the provider's announced limit only lowers it, its bucket keeps the local burst, and re-seeds raise its
 * level no higher than its own admissions left ({@link MinuteBucket}).
 *
 * <p>A route without a request or token limit ({@code none}: a self-hosted engine) has no bucket for it: that
 * dimension never holds a call back, and reads as infinitely available.
 *
 * <p>Owned by one stream task; not thread-safe. Time comes in as nanoseconds since the epoch, from
 * one clock: the per-minute buckets only use its differences, the daily budget its day.
 */
public final class QuotaLimiter {

    static final long INTERACTIVE_ABOUT_NANOS = Duration.ofMinutes(5).toNanos();
    private static final long NANOS_PER_MILLI = 1_000_000L;

    private final QuotaSettings settings;
    /** Null without a request limit. */
    private final MinuteBucket requests;
    /** Null without a token limit. */
    private final MinuteBucket tokens;
    /** Requests, tokens, then the separate input and output buckets when configured. */
    private final List<MinuteBucket> buckets;
    private final MinuteBucket input;
    private final DailyGate daily;
    private final AdmissionLog admissions = new AdmissionLog();
    private final BurstControl burst;
    private final ProviderReseed reseeds;
    private long lastInteractiveNanos = Long.MIN_VALUE;
    /** When the last call was admitted, epoch nanoseconds; 0 before the first. */
    private long lastAdmittedNanos;

    /**
     * @param daily     the route's daily limits ({@link DailyLimits#NONE}: none)
     * @param inputTpm  prompt tokens per minute, 0 for no separate limit
     * @param outputTpm completion tokens ({@code max_tokens}) per minute, 0 for no separate limit
     */
    public QuotaLimiter(QuotaSettings settings, DailyLimits daily, int inputTpm, int outputTpm, long nowNanos) {
        this.settings = settings;
        this.requests = MinuteBucket.of(settings.limitsRequests(), QuotaDimension.REQUESTS, settings.rpm(),
                !settings.rpmOrigin().learnsUp(), settings, nowNanos);
        this.tokens = MinuteBucket.of(settings.limitsTokens(), QuotaDimension.TOKENS, settings.tpm(),
                !settings.tpmOrigin().learnsUp(), settings, nowNanos);
        this.input = MinuteBucket.of(inputTpm > 0, QuotaDimension.INPUT_TOKENS, inputTpm, true, settings, nowNanos);
        List<MinuteBucket> all = new ArrayList<>(Arrays.asList(requests, tokens, input,
                MinuteBucket.of(outputTpm > 0, QuotaDimension.OUTPUT_TOKENS, outputTpm, true, settings, nowNanos)));
        all.removeIf(Objects::isNull);
        this.buckets = List.copyOf(all);
        this.daily = new DailyGate(daily);
        this.burst = new BurstControl(nowNanos);
        this.reseeds = new ProviderReseed(settings, buckets, admissions, burst);
    }

    public QuotaSettings settings() {
        return settings;
    }

    /** What waits behind a call when the caller does not say: without limit, so bulk work leaves the whole floor and the reserve. */
    public static final Charge UNKNOWN_AFTER = new Charge(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE);

    /** Whether a call charged {@code charge} may start now at {@code priority}: every budget allows it; takes it if so. */
    public boolean tryAcquire(Priority priority, Charge charge, long nowNanos) {
        return tryAcquire(priority, charge, UNKNOWN_AFTER, nowNanos);
    }

    /**
     * As {@link #tryAcquire(Priority, Charge, long)}, for a call behind which work of classes below
     * interactive charged {@code after} in all still waits: the last calls of a backlog may spend what lowerings added to
     * the reserve, and the reserve too unless interactive work came lately ({@link MinuteBucket#floor(Priority, double, long, boolean)}).
     */
    public boolean tryAcquire(Priority priority, Charge charge, Charge after, long nowNanos) {
        maintain(nowNanos);
        if (burst.cooling(nowNanos)) {
            return false;
        }
        for (MinuteBucket b : buckets) {
            if (!b.canTake(charge, after, priority, burst.scale(), interactiveAbout(nowNanos), nowNanos)) {
                return false;
            }
        }
        if (!daily.canTake(charge, millis(nowNanos))) {
            return false;
        }
        buckets.forEach(b -> b.take(charge, nowNanos));
        daily.take(charge, millis(nowNanos));
        admissions.add(nowNanos, charge);
        lastAdmittedNanos = nowNanos;
        if (priority == Priority.INTERACTIVE) {
            lastInteractiveNanos = nowNanos;
        }
        return true;
    }

    /**
     * Whether interactive work was admitted within {@link #INTERACTIVE_ABOUT_NANOS}: only then do lowerings that take the reserve make bulk
     * leave more of it, and a backlog's last calls leave the reserve itself ({@link MinuteBucket#floor}).
     */
    private boolean interactiveAbout(long nowNanos) {
        return lastInteractiveNanos != Long.MIN_VALUE && nowNanos - lastInteractiveNanos <= INTERACTIVE_ABOUT_NANOS;
    }

    private static long millis(long nanos) {
        return Math.floorDiv(nanos, NANOS_PER_MILLI);
    }

    /**
     * Calls a previous owner of the scope had out when this one took over ({@code calls} of
     * {@code tokens} in all). Their answers will never reach us, and under load some may reach the
     * provider only after our first call does, so the level it reports then does not hold them
     * yet: until {@code expiresNanos} ({@link ScopeUsage#inheritedUntil}), every re-seed counts them as not yet
     * charged, as it does our own unanswered calls. They do not enter the local buckets, which
     * start empty anyway.
     */
    public void inherit(int calls, long tokens, long nowNanos, long expiresNanos) {
        if (calls > 0 && expiresNanos > nowNanos) {
            admissions.inherit(calls, tokens, nowNanos, expiresNanos);
        }
    }

    /** The largest call {@code priority} can start without waiting for a completely full bucket: batches are sized to fit it. */
    public long maxRegularCost(Priority priority) {
        return tokens == null ? Long.MAX_VALUE : tokens.maxRegular(priority, burst.scale());
    }

    /** The largest prompt {@code priority} can send without waiting for a full input bucket (no input limit: none). */
    public long maxRegularPrompt(Priority priority) {
        return input == null ? Long.MAX_VALUE : input.maxRegular(priority, burst.scale());
    }

    /**
     * Nanoseconds until a call charged {@code charge} at {@code priority} could be admitted (a day's
     * reset included); 0 if it could be now. Asking changes nothing: see {@link #heldBack}.
     */
    public long nanosUntilAdmissible(Priority priority, Charge charge, long nowNanos) {
        return nanosUntilAdmissible(priority, charge, UNKNOWN_AFTER, nowNanos);
    }

    /**
     * As {@link #nanosUntilAdmissible(Priority, Charge, long)}, with {@code after} waiting behind the call (see
     * {@link #tryAcquire(Priority, Charge, Charge, long)}).
     */
    public long nanosUntilAdmissible(Priority priority, Charge charge, Charge after, long nowNanos) {
        long wait = burst.cooldownLeft(nowNanos);
        for (MinuteBucket b : buckets) {
            wait = Math.max(wait, b.nanosUntil(charge, after, priority, burst.scale(), interactiveAbout(nowNanos), nowNanos));
        }
        wait = Math.max(wait, daily.millisUntil(charge, millis(nowNanos)) * NANOS_PER_MILLI);
        return Math.max(0, wait);
    }

    /**
     * A call charged {@code charge} waits at {@code nowNanos} (there was no room for it): a daily
     * budget without the tokens for it is out for the day until the reset ({@link #outForDayUntil}).
     */
    public void heldBack(Charge charge, long nowNanos) {
        daily.heldBack(charge, millis(nowNanos));
    }

    /**
     * Gives back the reservation of a call the provider refused before admitting it (400 context
     * length or invalid request, 401/403/404): it counted nothing, so neither do we. {@code charge}
     * is the one it was admitted with.
     */
    public void refund(Charge charge, long sentAtNanos, long nowNanos) {
        admissions.remove(sentAtNanos, charge.tokens());
        giveBack(charge, sentAtNanos, nowNanos);
    }

    private void giveBack(Charge charge, long sentAtNanos, long nowNanos) {
        buckets.forEach(b -> b.giveBack(charge, nowNanos));
        daily.giveBack(charge, millis(sentAtNanos), millis(nowNanos));
    }

    /** The sequence number of the last call admitted (to name it in {@link #answered} and {@link #reseed(RateLimitInfo, long, long, long)}). */
    public long lastAdmission() {
        return admissions.last();
    }

    /** The call admitted as {@code admission} had its answer at {@code nowNanos}: the provider has counted it. */
    public void answered(long admission, long nowNanos) {
        admissions.answered(admission, nowNanos);
    }

    /**
     * Corrects a reservation once the provider reported what it counted: a prompt larger than the
     * estimate is charged (to the tokens, input and daily budgets); a smaller one is not refunded
     * (providers do not refund at admission).
     */
    public void reconcile(long estimatedPromptTokens, long actualPromptTokens, long nowNanos) {
        long extra = actualPromptTokens - estimatedPromptTokens;
        if (extra > 0) {
            Charge more = new Charge(0, extra, extra, 0);
            buckets.forEach(b -> b.take(more, nowNanos));
            daily.charge(extra, millis(nowNanos));
        }
    }

    /**
     * The provider counted a call's prompt as {@code actualPromptTokens} where we charged
     * {@code estimatedPromptTokens}: it charged its own count at admission, so the difference of a
     * smaller count is given back to the tokens and input budgets (never above their capacity).
     * Called before the answer's headers re-seed the level, which then has the last word. Without
     * it the calibration's upward bias (a high quantile of the recent ratios, see
     * {@link CostCalibration}) was quota charged locally that the provider never charged.
     */
    public void overestimated(long estimatedPromptTokens, long actualPromptTokens, long nowNanos) {
        long less = estimatedPromptTokens - actualPromptTokens;
        if (less > 0 && actualPromptTokens > 0) {
            Charge back = new Charge(0, less, less, 0);
            buckets.forEach(b -> b.giveBack(back, nowNanos));
        }
    }

    /**
     * Moves the local view to the provider's, from the headers of the call sent at {@code sentAtNanos}
     * (see {@link ProviderReseed#reseed(RateLimitInfo, long, boolean, long)}).
     */
    public void reseed(RateLimitInfo info, long sentAtNanos, long nowNanos) {
        reseeds.reseed(info, sentAtNanos, interactiveAbout(nowNanos), nowNanos);
    }

    /**
     * As {@link #reseed(RateLimitInfo, long, long)}, for the call admitted as {@code admission} whose
     * answer arrived at {@code receivedNanos} (see {@link ProviderReseed#reseed(RateLimitInfo, long, long, boolean, long)}).
     */
    public void reseed(RateLimitInfo info, long admission, long receivedNanos, long nowNanos) {
        reseeds.reseed(info, admission, receivedNanos, interactiveAbout(nowNanos), nowNanos);
    }

    /** When the provider takes its headers, as learned so far. */
    public HeaderTiming.Moment headerMoment() {
        return reseeds.headerMoment();
    }

    /**
     * A 429: stops all admission for {@code duration} and halves the burst allowance (down to a
     * quarter), so the next minute runs clean. The buckets refill during the cooldown, as the
     * provider's do.
     */
    public void rateLimited(Duration duration, long nowNanos) {
        coolDown(duration, nowNanos);
        burst.rateLimited(nowNanos);
        applyBurstScale(nowNanos);
        buckets.forEach(MinuteBucket::forgetProvider);
        reseeds.forget();
    }

    /** Stops all admission for {@code duration}; the per-minute levels drop to zero and refill meanwhile. */
    public void coolDown(Duration duration, long nowNanos) {
        long until = nowNanos + Math.max(0, duration.toNanos());
        burst.coolDownUntil(until);
        buckets.forEach(b -> b.empty(nowNanos));
    }

    private void maintain(long nowNanos) {
        admissions.purge(nowNanos);
        if (burst.grow(nowNanos)) {
            applyBurstScale(nowNanos);
        }
    }

    private void applyBurstScale(long nowNanos) {
        buckets.forEach(b -> b.scaleBurst(burst.scale(), nowNanos));
    }

    /**
     * When the route is out for the day (its daily requests or tokens are spent): the next reset,
     * in epoch milliseconds. Empty without daily limits or while the day's budget lasts.
     */
    public OptionalLong outForDayUntil(long nowNanos) {
        return daily.outUntil(millis(nowNanos));
    }

    /**
     * The provider answered a 429 about a daily limit: the day's budget is spent until the next
     * reset ({@code daily-reset-hour-utc}), whatever the local count says, and whether daily limits
     * are configured or not (a provider's own per-day quota, such as Gemini's).
     */
    public void dayExhausted(long nowNanos) {
        daily.exhaust(millis(nowNanos));
    }

    /** Every configured limit with its level now, per dimension, in {@link QuotaDimension} order. */
    public Map<QuotaDimension, QuotaLevel> levels(long nowNanos) {
        Map<QuotaDimension, QuotaLevel> out = new EnumMap<>(QuotaDimension.class);
        buckets.forEach(b -> out.put(b.dimension(), new QuotaLevel(b.limit(), b.available(nowNanos))));
        daily.levels(out, millis(nowNanos));
        return out;
    }

    /**
     * What the scope's next owner takes over: when this one last admitted a call (or what it took over,
     * before its own first), the day's usage with daily limits, and whether an answer has carried
     * rate-limit headers (the caller knows: {@code rateLimitHeaders}).
     */
    public ScopeUsage usage(long nowNanos, boolean rateLimitHeaders) {
        return new ScopeUsage(millis(lastAdmittedNanos), daily.usage(millis(nowNanos)), rateLimitHeaders,
                requests == null ? 0 : requests.limit(), tokens == null ? 0 : tokens.limit());
    }

    /**
     * Takes over from the scope's previous owner ({@code previous}; null: none recorded), whose last {@code calls} calls of
     * {@code tokens} were found still out ({@link #inherit}). The day's usage carries on. The per-minute buckets, empty so
     * far, are credited with the refill the provider certainly gave since the previous owner's last admission, over at
     * most {@code quietBoundNanos}, less the calls still out (charged as if after it), never above the burst. Why that
     * refill is certain: the record is committed with the admissions it covers, so a call the new owner does not know of
     * was sent after the last commit, by an owner that then died without committing again (a clean close or a moved task
     * commits first); its tasks move only once its session has expired, so such a call went out at least a session
     * timeout ago. Give the session timeout as {@code quietBoundNanos}. Without a record, the refill since this instance
     * started ({@code startedNanos}), over the same bound: a client that used the key before, a previous run too, stopped
     * at least that long ago (one using it meanwhile shows only in the headers), so a task assigned just before its first
     * ticket keeps its burst. A learned limit adopts the one the record carries, and is credited only with it
     * ({@link MinuteBucket#takeOver}).
     */
    public void takeOver(ScopeUsage previous, long quietBoundNanos, int calls, long tokens, long startedNanos, long nowNanos) {
        long since = startedNanos;
        if (previous != null) {
            daily.restore(previous.day(), millis(nowNanos));
            if (previous.lastAdmittedMs() > 0) {
                since = previous.lastAdmittedMs() * NANOS_PER_MILLI;
                lastAdmittedNanos = Math.max(lastAdmittedNanos, since);
            }
        }
        long quietNanos = quietBoundNanos <= 0 ? 0 : Math.min(Math.max(0, nowNanos - since), quietBoundNanos);
        for (MinuteBucket b : buckets) {
            b.takeOver(previous == null ? 0 : previous.limit(b.dimension()), quietNanos, b.dimension() == QuotaDimension.REQUESTS ? calls : tokens,
                    burst.scale(), nowNanos);
        }
    }

    public double burstScale() {
        return burst.scale();
    }

    public boolean inCooldown(long nowNanos) {
        return burst.cooling(nowNanos);
    }

    public long cooldownRemainingNanos(long nowNanos) {
        return Math.max(0, burst.cooldownLeft(nowNanos));
    }

    /** What the token bucket holds now; infinity without a token limit. */
    public double availableTokens(long nowNanos) {
        return tokens == null ? Double.POSITIVE_INFINITY : tokens.available(nowNanos);
    }

    /** What the request bucket holds now; infinity without a request limit. */
    public double availableRequests(long nowNanos) {
        return requests == null ? Double.POSITIVE_INFINITY : requests.available(nowNanos);
    }

    /** The token bucket's capacity; infinity without a token limit. */
    public double tokenCapacity() {
        return tokens == null ? Double.POSITIVE_INFINITY : tokens.capacity();
    }

    /** The token bucket's refill a second (the limit in force × the safety factor); 0 without a token limit. */
    public double tokenRate() {
        return tokens == null ? 0 : tokens.ratePerSecond();
    }

    /** The request bucket's capacity; infinity without a request limit. */
    public double requestCapacity() {
        return requests == null ? Double.POSITIVE_INFINITY : requests.capacity();
    }
}
