package io.quotaflow.dispatch.limit;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.PromptBuilder;
import io.quotaflow.quota.Charge;
import io.quotaflow.quota.EngineSignals;
import io.quotaflow.quota.EpochNanoClock;
import io.quotaflow.quota.RateLimitInfo;
import io.quotaflow.records.Priority;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.simulator.EngineMode;
import io.quotaflow.testkit.ManualTime;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.PriorityQueue;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A route configured as a new user configures a self-hosted engine (huge numeric limits,
 * {@code max-in-flight=auto}), against the simulator's engine shape ({@link EngineMode}: a call
 * admitted while n run takes 500 ms × max(1, n / 8); more than 48 running refused): the provider
 * model fills the engine as the dispatcher does, on test time, until 60 s have passed.
 */
class EngineWatchTest {

    private static final ModelSettings MODEL = ModelSettings.of(URI.create("http://engine.local:8000/v1"), "served-model",
            Secret.of("sk-engine-0123456789"));
    private static final EngineMode ENGINE = EngineMode.of(8, 48);
    private static final long BASE_MS = 500;
    private static final RateLimitInfo HEADERS = new RateLimitInfo(OptionalLong.of(1_000_000), OptionalLong.of(100_000_000),
            OptionalLong.of(999_000), OptionalLong.of(99_000_000), Optional.of(Duration.ofMillis(60)), Optional.of(Duration.ofMillis(60)),
            Optional.empty());

    /** What one run of the engine measured over its last 30 s. */
    private record Run(int refusals, double callsPerSecond, double medianMs, int peak, ProviderModel.View view) {
    }

    private record Call(String id, long doneNanos, long latencyMs, boolean refused) {
    }

    private static Run run(QuotaSettings quota, RateLimitInfo headers) {
        return run(quota, headers, ENGINE);
    }

    private static Run run(QuotaSettings quota, RateLimitInfo headers, EngineMode engine) {
        ManualTime time = new ManualTime(1_000_000);
        DispatcherSettings settings = DispatcherSettings.builder(MODEL, quota, BatchSettings.ofDefaults().withMaxItems(1),
                RetrySettings.ofDefaults()).build();
        ProviderModel provider = new ProviderModel(settings, new PromptBuilder(settings.model()), EpochNanoClock.of(time));
        PriorityQueue<Call> out = new PriorityQueue<>((a, b) -> Long.compare(a.doneNanos, b.doneNanos));
        Random random = new Random(11);
        long start = time.nanoseconds();
        long measureFrom = start + 30_000_000_000L;
        long end = start + 60_000_000_000L;
        List<Long> latencies = new ArrayList<>();
        int refusals = 0;
        int running = 0;
        int peak = 0;
        int ids = 0;
        while (time.nanoseconds() < end) {
            // the dispatcher's loop: start calls while the in-flight limit and the limiter allow (an endless backlog)
            while (out.size() < provider.maxInFlight()) {
                String id = "call-" + ids++;
                if (!provider.admit(id, Priority.STANDARD, Charge.call(300, 20), Charge.NONE)) {
                    break;
                }
                if (running + 1 > engine.maxRunning()) {
                    refusals++;
                    out.add(new Call(id, time.nanoseconds() + 1_000_000, 1, true));
                    continue;
                }
                running++;
                peak = Math.max(peak, running);
                long latencyMs = Math.round(BASE_MS * engine.slowdown(running) * (1 + 0.1 * (2 * random.nextDouble() - 1)));
                out.add(new Call(id, time.nanoseconds() + latencyMs * 1_000_000, latencyMs, false));
            }
            // the next answer, or the next tick when the limiter held a call back
            long next = out.isEmpty() ? time.nanoseconds() + 50_000_000 : Math.min(out.peek().doneNanos, time.nanoseconds() + 50_000_000);
            time.advanceNanos(Math.max(1, next - time.nanoseconds()));
            while (!out.isEmpty() && out.peek().doneNanos <= time.nanoseconds()) {
                Call done = out.poll();
                ModelOutcome outcome;
                if (done.refused) {
                    outcome = new ModelOutcome.Failed(ModelOutcome.FailureKind.OVERLOADED, 429, "Model is overloaded", Optional.empty(),
                            RateLimitInfo.EMPTY, 1, null);
                } else {
                    running--;
                    if (time.nanoseconds() - done.latencyMs * 1_000_000 >= measureFrom) {
                        latencies.add(done.latencyMs);
                    }
                    outcome = new ModelOutcome.Answered(Map.of(), Map.of(), "stop", 300, 10, headers, done.latencyMs);
                }
                provider.answered(done.id, outcome);
            }
        }
        Collections.sort(latencies);
        return new Run(refusals, latencies.size() / 30.0, latencies.isEmpty() ? 0 : latencies.get(latencies.size() / 2), peak,
                provider.view());
    }

    private static QuotaSettings huge() {
        return QuotaSettings.ofDefaults().withRpm(1_000_000).withTpm(100_000_000).withMaxInFlight(QuotaSettings.AUTO);
    }

    @Test
    void shouldEndWithNoRefusalOnAnEngineConfiguredWithHugeNumericLimits() {
        Run run = run(huge(), RateLimitInfo.EMPTY);
        double most = ENGINE.saturation() * 1000.0 / BASE_MS;
        assertThat(run.refusals()).as("overload refusals").isZero();
        assertThat(run.peak()).as("most calls running").isLessThanOrEqualTo(2 * EngineSignals.INITIAL_CAP);
        assertThat(run.callsPerSecond()).as("of the engine's most").isGreaterThanOrEqualTo(0.9 * most);
        assertThat(run.medianMs()).as("median call against an unloaded one").isLessThan(1.5 * BASE_MS);
        assertThat(run.view().inFlightLimit()).isBetween(6, 12);
        assertThat(run.view().engine()).contains("looks like a self-hosted engine").contains("rpm=none, tpm=none, max-in-flight=auto");
    }

    @Test
    void shouldRunAsConfiguredAsAnEngineWithNone() {
        Run run = run(QuotaSettings.ofDefaults().withRpm(QuotaSettings.NONE).withTpm(QuotaSettings.NONE)
                .withMaxInFlight(QuotaSettings.AUTO), RateLimitInfo.EMPTY);
        assertThat(run.refusals()).isZero();
        assertThat(run.callsPerSecond()).isGreaterThanOrEqualTo(0.9 * ENGINE.saturation() * 1000.0 / BASE_MS);
        assertThat(run.medianMs()).isLessThan(1.5 * BASE_MS);
        assertThat(run.view().engine()).as("configured as one: nothing to say").isNull();
    }

    @Test
    void shouldKeepLittlesLawWhenAnswersCarryRateLimitHeaders() {
        // the same shape, refusing nothing, whose answers announce its limits: a provider with a quota, not taken for an engine
        Run run = run(huge(), HEADERS, EngineMode.of(8, 1_000));
        assertThat(run.view().engine()).isNull();
        assertThat(run.view().inFlightLimit()).as("the rates' limit, not the knee").isGreaterThan(100);
        assertThat(run.peak()).isGreaterThan(100);
    }

    @Test
    void shouldOnlySayItWhenMaxInFlightIsFixed() {
        Run run = run(huge().withMaxInFlight(128), RateLimitInfo.EMPTY);
        assertThat(run.view().inFlightLimit()).isEqualTo(128);
        assertThat(run.view().engine()).contains("max-in-flight stays at the configured 128");
    }

    @Test
    void shouldStartWithoutTheGuardOnAScopeWhosePreviousOwnerSawRateLimitHeadersAndSayItToTheNext() {
        DispatcherSettings settings = DispatcherSettings.builder(MODEL, huge(), BatchSettings.ofDefaults().withMaxItems(1),
                RetrySettings.ofDefaults()).build();
        ManualTime time = new ManualTime(1_000_000);
        ProviderModel fresh = new ProviderModel(settings, new PromptBuilder(settings.model()), EpochNanoClock.of(time));
        fresh.takeOver(null, Duration.ofSeconds(6), 0, 0, EpochNanoClock.of(time).epochNanos());
        assertThat(fresh.maxInFlight()).as("nothing known: the guard's first calls").isEqualTo(EngineSignals.INITIAL_CAP);
        assertThat(fresh.usage().rateLimitHeaders()).isFalse();

        // the first owner's first answer carries headers: its record says so
        time.sleep(1_000);
        assertThat(fresh.admit("c1", Priority.STANDARD, Charge.call(300, 20), Charge.NONE)).isTrue();
        time.sleep(400);
        fresh.answered("c1", new ModelOutcome.Answered(Map.of(), Map.of(), "stop", 300, 10, HEADERS, 400));
        io.quotaflow.quota.ScopeUsage record = fresh.usage();
        assertThat(record.rateLimitHeaders()).isTrue();

        // a next owner (a restart, a moved task) of the same scope starts without the guard
        ProviderModel next = new ProviderModel(settings, new PromptBuilder(settings.model()), EpochNanoClock.of(time));
        next.takeOver(record, Duration.ofSeconds(6), 0, 0, EpochNanoClock.of(time).epochNanos());
        assertThat(firstCallOut(next, time)).as("by the rates and what the buckets hold, before any answer of its own")
                .isGreaterThan(4 * EngineSignals.INITIAL_CAP);
        assertThat(next.usage().rateLimitHeaders()).as("and it passes it on").isTrue();

        // a record of an owner that never saw headers (or one written before the field existed) leaves the guard on
        ProviderModel unsure = new ProviderModel(settings, new PromptBuilder(settings.model()), EpochNanoClock.of(time));
        unsure.takeOver(new io.quotaflow.quota.ScopeUsage(record.lastAdmittedMs(), null), Duration.ofSeconds(6), 0, 0, EpochNanoClock.of(time).epochNanos());
        assertThat(firstCallOut(unsure, time)).isLessThanOrEqualTo(EngineSignals.INITIAL_CAP + 2);
    }

    /** The in-flight limit 100 ms after a scope's first call went out, no answer yet, its buckets refilled for a second. */
    private static int firstCallOut(ProviderModel provider, ManualTime time) {
        time.sleep(1_000);
        assertThat(provider.admit("first-" + time.nanoseconds(), Priority.STANDARD, Charge.call(300, 20), Charge.NONE)).isTrue();
        time.sleep(100);
        return provider.maxInFlight();
    }
}
