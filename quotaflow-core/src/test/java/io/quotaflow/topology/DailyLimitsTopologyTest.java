package io.quotaflow.topology;

import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.DailyLimits;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.Prices;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Routing;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.quota.QuotaLevel;
import io.quotaflow.quota.RateLimitInfo;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testing.PipelineHarness;
import io.quotaflow.records.Priority;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.dispatch.report.DispatcherSnapshot;

import static org.assertj.core.api.Assertions.assertThat;

/** A route's daily and input/output limits, through the whole topology on simulated time. */
class DailyLimitsTopologyTest {

    /** Keeps the latest snapshot. */
    private static final class Snapshots implements DispatcherListener {
        DispatcherSnapshot last;

        @Override
        public void state(DispatcherSnapshot snapshot) {
            last = snapshot;
        }
    }

    private static DispatcherSettings settings(DailyLimits daily, int inputTpm, int outputTpm, BatchSettings batch) {
        QuotaSettings quota = QuotaSettings.ofDefaults().withRpm(6_000).withTpm(2_000_000).withBurstSeconds(5);
        RouteSettings route = new RouteSettings(RouteSettings.DEFAULT_NAME, Fixtures.model(), quota, List.of(), null, Prices.NONE,
                daily, inputTpm, outputTpm);
        Routing routing = new Routing(Map.of(route.name(), route), route.name(), Map.of(), Map.of(), Map.of(),
                Routing.DEFAULT_CACHE_TTL);
        return DispatcherSettings.builder(Fixtures.model(), quota, batch, RetrySettings.ofDefaults()).build().withRouting(routing);
    }

    @Test
    void shouldMakeExactlyThreeCallsADayWithRpdThreeAndReportOutForTheDayUntilTheReset() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        Snapshots snapshots = new Snapshots();
        DispatcherSettings settings = settings(new DailyLimits(3, 0, 0), 0, 0, BatchSettings.ofDefaults().withMaxItems(1));
        try (PipelineHarness h = new PipelineHarness(settings, client, snapshots)) {
            for (int i = 0; i < 8; i++) {
                h.pipe(Priority.INTERACTIVE, "T-" + i, Fixtures.ticket("T-" + i));
            }
            h.advance(Duration.ofSeconds(30));
            assertThat(client.requests()).hasSize(3);
            assertThat(h.classified()).hasSize(3);
            assertThat(h.deadLetters()).isEmpty();
            assertThat(snapshots.last.outForDayUntil()).isEqualTo("2026-01-02T00:00:00Z");
            assertThat(snapshots.last.limits().get("requests-per-day")).isEqualTo(new QuotaLevel(3, 0));
            assertThat(snapshots.last.pendingTotal()).isEqualTo(5);
            assertThat(snapshots.last.estimatedWaitMs()).as("until midnight UTC").isBetween(
                    Duration.ofHours(24).minusSeconds(31).toMillis(), Duration.ofHours(24).minusSeconds(29).toMillis());

            h.jump(Duration.ofHours(24).minusSeconds(32));
            h.advance(Duration.ofSeconds(1));
            assertThat(client.requests()).as("a second before the reset").hasSize(3);
            h.advance(Duration.ofSeconds(5));
            assertThat(client.requests()).as("the next day's three").hasSize(6);
            assertThat(h.classified()).hasSize(3);
            assertThat(snapshots.last.outForDayUntil()).isEqualTo("2026-01-03T00:00:00Z");
            assertThat(snapshots.last.pendingTotal()).isEqualTo(2);
        }
    }

    @Test
    void shouldStopForTheDayWhenTheProviderAnswersA429AboutItsDailyLimit() {
        String rpd = "Rate limit reached for gpt-4o-mini in organization org-x on requests per day (RPD): Limit 10000, Used 10000, "
                + "Requested 1. Please try again in 8.64s.";
        FakeModelClient client = new FakeModelClient(r -> new ModelOutcome.RateLimited(Optional.of(Duration.ofSeconds(9)), rpd,
                Optional.empty(), Optional.empty(), RateLimitInfo.EMPTY, 20));
        Snapshots snapshots = new Snapshots();
        DispatcherSettings settings = settings(new DailyLimits(10_000, 0, 7), 0, 0, BatchSettings.ofDefaults().withMaxItems(1));
        try (PipelineHarness h = new PipelineHarness(settings, client, snapshots)) {
            h.pipe(Priority.INTERACTIVE, "T-1", Fixtures.ticket("T-1"));
            h.advance(Duration.ofSeconds(60));
            assertThat(client.requests()).as("no call after the provider said the day is spent").hasSize(1);
            assertThat(snapshots.last.outForDayUntil()).isEqualTo("2026-01-01T07:00:00Z");
            assertThat(snapshots.last.pendingTotal()).isEqualTo(1);
            assertThat(h.deadLetters()).isEmpty();
        }
    }

    @Test
    void shouldPacePromptHeavyCallsByTheInputLimitWhileTheTotalLimitHasRoom() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        Snapshots snapshots = new Snapshots();
        // 3 000 input tokens a minute at 0.98: 49 a second, 245 of burst; each one-ticket call's prompt is 145
        DispatcherSettings settings = settings(DailyLimits.NONE, 3_000, 0, BatchSettings.ofDefaults().withMaxItems(1));
        try (PipelineHarness h = new PipelineHarness(settings, client, snapshots)) {
            for (int i = 0; i < 40; i++) {
                h.pipe(Priority.INTERACTIVE, "T-" + i, Fixtures.ticket("T-" + i));
            }
            h.advance(Duration.ofSeconds(60));
            long prompts = client.requests().stream().mapToLong(r -> r.prompt().promptTokens()).sum();
            // at most the burst (5 s of refill) plus a minute of refill, and not far below it
            assertThat(prompts).isLessThanOrEqualTo(3_000 * 98 / 100 * 65 / 60).isGreaterThan(3_000 * 98 / 100 * 55 / 60);
            assertThat(client.requests().size()).isLessThan(40);
            assertThat(snapshots.last.limits().get("input-tokens").limit()).isEqualTo(3_000);
            assertThat(snapshots.last.limits().get("tokens").available()).as("the total limit is not what binds")
                    .isGreaterThan(10_000);
            assertThat(snapshots.last.outForDayUntil()).isNull();
        }
    }
}
