package io.quotaflow.dispatch.limit;

import io.quotaflow.dispatch.plan.DispatchView;
import io.quotaflow.dispatch.ledger.Backlog;
import io.quotaflow.dispatch.ledger.InFlightBatch;
import io.quotaflow.dispatch.queue.PendingQueue;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.llm.ChatPrompt;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.PromptBuilder;
import io.quotaflow.quota.EpochNanoClock;
import io.quotaflow.quota.Charge;
import io.quotaflow.quota.CompletionBudget;
import io.quotaflow.quota.ContextWindow;
import io.quotaflow.quota.CostCalibration;
import io.quotaflow.quota.ScopeUsage;
import io.quotaflow.quota.InFlightLimit;
import io.quotaflow.quota.QuotaDimension;
import io.quotaflow.quota.QuotaLevel;
import io.quotaflow.quota.QuotaLimiter;
import io.quotaflow.quota.RateLimitHeaders;
import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import io.quotaflow.failure.OutcomePolicy;

/**
 * What one scope knows of its provider, and what it may therefore send: the limiter, the
 * calibration of our token count to the provider's, the context window, the learned
 * {@code max_tokens}, how many calls may be out. Plain Java, one per dispatcher task; it hears every
 * admission and every answer (docs/design.md, "Limiter").
 */
public final class ProviderModel implements DispatchView.Limiter {

    /**
     * A call this incarnation admitted: its number in the limiter's log, when it was sent (limiter
     * nanoseconds), what it was charged, and how many of this incarnation's calls were out with it.
     */
    public record Admission(long number, long sentNanos, Charge charge, int outAtSend) {
    }

    private final DispatcherSettings settings;
    private final PromptBuilder prompts;
    private final EpochNanoClock clock;
    private final QuotaLimiter limiter;
    private final CostCalibration calibration = new CostCalibration();
    private final TickLateness ticks;
    private final ContextWindow window;
    private final InFlightLimit inFlight;
    /** The limit found from latency on a self-hosted engine, configured as one or found to look like one. */
    private final EngineWatch engine;
    private final CompletionBudget budget;
    /** The calls out that this incarnation admitted (a restarted task has none of its own), by batch id. */
    private final Map<String, Admission> admissions = new HashMap<>();

    /**
     * @param clock the limiter's time in nanoseconds: the real clock in production (the Streams
     *              loop's time is cached and would credit refill that never happened), test time in tests;
     *              nanoseconds since the epoch, since the daily limits reset at an hour UTC
     */
    public ProviderModel(DispatcherSettings settings, PromptBuilder prompts, EpochNanoClock clock) {
        this.settings = settings;
        this.prompts = prompts;
        this.clock = clock;
        RouteSettings route = settings.routing().routesOf(settings.scope()).stream().findFirst()
                .orElse(RouteSettings.of(RouteSettings.DEFAULT_NAME, settings.model(), settings.quota()));
        this.limiter = new QuotaLimiter(settings.quota(), route.daily(), route.inputTpm(), route.outputTpm(), clock.epochNanos());
        this.window = new ContextWindow(settings.model().contextTokens());
        this.inFlight = new InFlightLimit(settings.quota().maxInFlight(), settings.quota().maxInFlightCeiling());
        this.engine = new EngineWatch(settings.quota(), inFlight.auto(), clock.epochNanos());
        this.budget = new CompletionBudget(settings.batch().completionTokensPerItem());
        this.ticks = new TickLateness(settings.batch().punctuateInterval().toMillis());
    }

    /** The dispatcher ticked at {@code nowMs} (its punctuator's time, epoch ms): how late ticks come sizes batches ({@link #promptTokenCap}). */
    public void tick(long nowMs) {
        ticks.tick(nowMs);
    }

    /**
     * Calls this scope may have out now: fixed, or by Little's law from its limits and latency, with
     * room to spend what the buckets hold now; before the first answer the oldest call's wait stands
     * in for the latency. On a self-hosted engine, configured as one or found to look like one, the
     * limit found from latency also bounds auto: the lower wins ({@link EngineWatch}).
     */
    @Override
    public boolean inFlightFixed() {
        return !inFlight.auto();
    }

    /** The limiter's time now (epoch ns): read once for each {@link DispatchView}, whose limiter answers are of that time. */
    public long epochNanos() {
        return clock.epochNanos();
    }

    /** {@link #maxInFlight(long)} now (for reports). */
    public int maxInFlight() {
        return maxInFlight(clock.epochNanos());
    }

    @Override
    public int maxInFlight(long now) {
        if (!inFlight.auto()) {
            return inFlight.limit(0, 0);
        }
        QuotaSettings q = settings.quota();
        // asked before every call the dispatcher starts: the scan of the calls out only while no latency is known
        long oldestMs = inFlight.latencyKnown() ? 0 : oldestOutstandingMs(now);
        int byRates = inFlight.limit(new InFlightLimit.Demand(q.requestsPerSecond(), q.tokensPerSecond(),
                limiter.availableRequests(now), limiter.availableTokens(now), oldestMs));
        return engine.limit(byRates, oldestMs);
    }

    /** How long the oldest call still out has waited, in milliseconds (0 when none is out). */
    private long oldestOutstandingMs(long now) {
        long oldestSent = now;
        for (Admission a : admissions.values()) {
            oldestSent = Math.min(oldestSent, a.sentNanos());
        }
        return (now - oldestSent) / 1_000_000;
    }

    /**
     * Prompt tokens one batch of {@code priority} may hold: the configured cap, lowered so that a
     * full batch (prompt + its {@code max_tokens}) fits both the limiter's bucket above that class's
     * reserve, less the refill of the ticks' recent lateness ({@link #tick}), and the context window. A
     * single larger ticket still goes alone, from a full bucket.
     */
    @Override
    public int promptTokenCap(Priority priority) {
        long completion = budget.maxTokensFor(settings.batch().maxItems(), 1);
        // room for the refill of a late tick ({@link TickLateness}), or a late tick finds the bucket full
        long slack = (long) Math.ceil(limiter.tokenRate() * ticks.lateMs() / 1_000);
        long room = Math.min(limiter.maxRegularCost(priority) - slack, window.tokens()) - completion;
        long promptRoom = Math.min(Math.max(0, room), limiter.maxRegularPrompt(priority));
        long fits = calibration.unapply(promptRoom) - prompts.fixedTokens();
        return (int) Math.max(1, Math.min(settings.batch().maxPromptTokens(), fits));
    }

    /**
     * A proposal's admission charge from the per-ticket estimates, without building its prompt: a
     * lower bound (a couple of tokens per ticket of margin), so skipping on it never skips a call
     * that could go.
     */
    @Override
    public Charge estimate(PendingQueue.Proposal proposal) {
        int n = proposal.refs().size();
        return Charge.call(calibration.apply(prompts.fixedTokens() + proposal.tokens() - 2L * n), budget.maxTokensFor(n, 1));
    }

    /**
     * What the calls carrying {@code backlog} would be charged at least: full batches of
     * {@code batch.max-items} (a cap on prompt tokens can make them smaller, and so more), each with
     * the prompt's fixed part and the learned {@code max_tokens}, calibrated as {@link #estimate(PendingQueue.Proposal)}.
     */
    @Override
    public Charge estimate(Backlog backlog) {
        if (backlog.tickets() == 0) {
            return Charge.NONE;
        }
        int perCall = settings.batch().maxItems();
        long full = backlog.tickets() / perCall;
        int rest = (int) (backlog.tickets() % perCall);
        long calls = full + (rest > 0 ? 1 : 0);
        long prompt = calibration.apply(prompts.fixedTokens() * calls + backlog.promptTokens());
        long completion = full * budget.maxTokensFor(perCall, 1) + (rest > 0 ? budget.maxTokensFor(rest, 1) : 0);
        return new Charge(calls, prompt + completion, prompt, completion);
    }

    @Override
    public long nanosUntilAdmissible(Priority priority, Charge charge, Charge after, long nanos) {
        return limiter.nanosUntilAdmissible(priority, charge, after, nanos);
    }

    /** A call charged {@code charge} waits for room (see {@link QuotaLimiter#heldBack}). */
    public void heldBack(Charge charge) {
        limiter.heldBack(charge, clock.epochNanos());
    }

    /** When the route is out for the day (its daily budget spent): the next reset in epoch ms; else empty. */
    public OptionalLong outForDayUntil() {
        return limiter.outForDayUntil(clock.epochNanos());
    }

    /**
     * What the provider will count for the prompt of {@code items}: its own count of the prompt (the
     * tickets' tokens counted once at intake plus the fixed part, calibrated) and the learned
     * {@code max_tokens} exactly. No prompt is built: {@link #prompt} builds it, for the call that starts.
     */
    @Override
    public Charge charge(List<WorkItem> items) {
        return Charge.call(calibration.apply(promptTokens(items)), maxTokens(items));
    }

    /** The prompt of {@code items}, whose tokens and {@code max_tokens} are those {@link #charge} priced. */
    public ChatPrompt prompt(List<WorkItem> items) {
        return prompts.build(items.stream().map(ModelItem::ofTicketJson).toList(), maxTokens(items), promptTokens(items));
    }

    private int promptTokens(List<WorkItem> items) {
        return prompts.fixedTokens() + items.stream().mapToInt(WorkItem::tokens).sum();
    }

    private int maxTokens(List<WorkItem> items) {
        int boost = items.stream().mapToInt(WorkItem::maxTokensBoost).max().orElse(1);
        return budget.maxTokensFor(items.size(), boost);
    }

    @Override
    public ContextWindow window() {
        return window;
    }

    /** Admits call {@code batchId} charged {@code charge}, with work charged {@code after} waiting behind it, if the limiter allows it now. */
    public boolean admit(String batchId, Priority priority, Charge charge, Charge after) {
        long now = clock.epochNanos();
        if (!limiter.tryAcquire(priority, charge, after, now)) {
            return false;
        }
        admissions.put(batchId, new Admission(limiter.lastAdmission(), now, charge, admissions.size() + 1));
        inFlight.admitted(charge.tokens());
        return true;
    }

    /**
     * Call {@code batchId} came back: the provider's headers move the limiter (only for calls this
     * incarnation sent: another's timing is unknown). Returns its admission, if this incarnation made it.
     */
    public Optional<Admission> answered(String batchId, ModelOutcome outcome) {
        Admission admission = admissions.remove(batchId);
        inFlight.answered(outcome.latencyMs());
        if (admission == null) {
            return Optional.empty();
        }
        if (outcome instanceof ModelOutcome.Answered answered) {
            engine.answered(admission.sentNanos(), admission.outAtSend(), admission.charge().tokens(), outcome.latencyMs(),
                    !outcome.rateLimits().isEmpty(), clock.epochNanos());
            // the provider charged its own count of the prompt at admission: an over-estimate was never spent
            limiter.overestimated(admission.charge().inputTokens(), answered.promptTokens(), clock.epochNanos());
        }
        if (!outcome.rateLimits().isEmpty()) {
            engine.headers();
            // the provider computed its headers somewhere between our send and its answer; credit refill
            // only from the answer on (the latest it can have been), so no refill is counted twice
            long latestSnapshot = admission.sentNanos() + Math.max(0, outcome.latencyMs()) * 1_000_000L;
            limiter.reseed(outcome.rateLimits(), admission.number(), Math.min(latestSnapshot, clock.epochNanos()), clock.epochNanos());
        }
        limiter.answered(admission.number(), clock.epochNanos());
        return Optional.of(admission);
    }

    /**
     * What the scope learns from an answered call about the provider: its count, its window, its
     * concurrency. Returns true when the context window shrank.
     */
    public boolean learn(InFlightBatch batch, List<WorkItem> items, ModelOutcome outcome, OutcomePolicy.Decision decision,
                  Optional<Admission> admission, int callsInFlight) {
        long now = clock.epochNanos();
        if (outcome instanceof ModelOutcome.Answered answered) {
            if (answered.promptTokens() > 0) {
                calibration.observe(answered.promptTokens(), batch.promptTokens());
            }
            limiter.reconcile(batch.chargedTokens() - batch.maxTokens(), answered.promptTokens(), now);
            if (decision.budgetSample()) {
                budget.record(items.size(), answered.completionTokens());
            } else if (answered.truncated()) {
                budget.recordCut(items.size(), batch.maxTokens());
            }
        } else if (outcome instanceof ModelOutcome.RateLimited limited) {
            if (RateLimitHeaders.aboutTokens(limited.message())) {
                // "Used X, Requested Y": the provider's own count of this call (prompt + max_tokens)
                limited.requested().ifPresent(requested -> calibration.observe(requested - batch.maxTokens(), batch.promptTokens()));
            }
            if (limited.perDay()) {
                limiter.dayExhausted(now);
            }
            if (RateLimitHeaders.aboutConcurrency(limited.message())) {
                inFlight.concurrencyLimited(callsInFlight + 1);
            }
        } else if (outcome instanceof ModelOutcome.Failed failed) {
            overloaded(failed, admission, callsInFlight, now);
            if (decision.refund() && admission.isPresent()) {
                // refused before admission: the provider counted nothing (with headers, reseed said so already)
                limiter.refund(admission.get().charge(), admission.get().sentNanos(), now);
            }
            return decision.learnContextWindow() && window.learn(failed.message());
        }
        return false;
    }

    /**
     * An engine's "too many at once" (a 429 without rate-limit headers saying it is overloaded, or a
     * 503): the limit found from latency shrinks; without one, an overload 429 lowers the ceiling to
     * just under what was out, as a provider's concurrency 429 does. Neither touches the rate limits.
     */
    private void overloaded(ModelOutcome.Failed failed, Optional<Admission> admission, int callsInFlight, long now) {
        boolean overload = failed.kind() == ModelOutcome.FailureKind.OVERLOADED;
        boolean taken = (overload || failed.status() == 503)
                && engine.overloaded(admission.map(Admission::sentNanos).orElse(Long.MIN_VALUE), now);
        if (overload && !taken) {
            inFlight.concurrencyLimited(callsInFlight + 1);
        }
    }

    /**
     * Takes over from the scope's previous owner: its calls found in flight at restore count as not
     * yet charged by the provider until they certainly reached it ({@link ScopeUsage#inheritedUntil}:
     * a transit after its last recorded admission; the request timeout without a record);
     * its usage record ({@code previous}, null for none) carries the day's usage on and credits the
     * refill since its last admission (without one, since this instance started: {@code startedNanos}),
     * over at most {@code quietBound} ({@link QuotaLimiter#takeOver}).
     */
    public void takeOver(ScopeUsage previous, java.time.Duration quietBound, int calls, long tokens, long startedNanos) {
        long now = clock.epochNanos();
        if (previous != null && previous.rateLimitHeaders()) {
            // a previous owner's answers showed rate-limit headers: a provider with a quota, no guard before the first answer
            engine.headers();
        }
        limiter.inherit(calls, tokens, now, ScopeUsage.inheritedUntil(previous, now, settings.model().timeout().toNanos()));
        limiter.takeOver(previous, quietBound.toNanos(), calls, tokens, startedNanos, now);
    }

    /** A call the provider refused before admitting it (it charged nothing): its charge goes back to the buckets. */
    public void refund(Admission admission) {
        limiter.refund(admission.charge(), admission.sentNanos(), clock.epochNanos());
    }

    /** A 429: the whole scope pauses for {@code duration}. */
    public void rateLimited(Duration duration) {
        limiter.rateLimited(duration, clock.epochNanos());
    }

    public double burstScale() {
        return limiter.burstScale();
    }

    /** The numbers /status shows. */
    public record View(double availableTokens, double availableRequests, long cooldownMs, boolean cooldown, double estimateRatio,
                long contextTokens, int inFlightLimit, double tokenCapacity, Map<QuotaDimension, QuotaLevel> levels,
                OptionalLong outForDayUntil, String engine) {
    }

    public View view() {
        long now = clock.epochNanos();
        // a dimension without a limit holds no bucket: shown as 0, as its limit is (0: none)
        return new View(finite(limiter.availableTokens(now)), finite(limiter.availableRequests(now)),
                limiter.cooldownRemainingNanos(now) / 1_000_000,
                limiter.inCooldown(now), calibration.factor(), window.tokens(), maxInFlight(), finite(limiter.tokenCapacity()),
                limiter.levels(now), limiter.outForDayUntil(now), engine.hint());
    }

    private static double finite(double value) {
        return Double.isInfinite(value) ? 0 : value;
    }

    /**
     * Once, the moment the route was found to look like a self-hosted engine it was not configured
     * as: what to tell the operator (no secret: settings keys and latencies); else empty.
     */
    public Optional<String> engineNotice() {
        return Optional.ofNullable(engine.takeNotice());
    }

    /** What the scope's next owner takes over from this one, for a store ({@link QuotaLimiter#usage}). */
    public ScopeUsage usage() {
        return limiter.usage(clock.epochNanos(), engine.headersSeen());
    }

    /** Forgets the calls out (the task closes: their answers will not be read). */
    public void forget() {
        admissions.clear();
    }
}
