package io.quotaflow.bench;

import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.simulator.SimulatorStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpHeaders;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;

import static org.assertj.core.api.Assertions.assertThat;

class BaselineRunnerTest {

    private static final String KEY = "sk-baseline-test";
    private static final BiPredicate<String, String> ALL = (a, b) -> true;

    @Test
    void shouldEstimateCharactersOverThreePointFivePlusFortyPerTicket() {
        assertThat(BaselineRunner.estimate(0)).isEqualTo(40);
        assertThat(BaselineRunner.estimate(7)).isEqualTo(42);
        assertThat(BaselineRunner.estimate(8)).isEqualTo(43); // ceil(2.29) = 3
        assertThat(BaselineRunner.estimate(350)).isEqualTo(140);
        assertThat(BaselineRunner.estimate(351)).isEqualTo(141);
        GeneratedTicket t = new TicketGenerator(42).ticket(0);
        assertThat(BaselineRunner.estimate(t)).isEqualTo((long) Math.ceil(t.textLength() / 3.5) + 40);
        List<GeneratedTicket> group = new TicketGenerator(42).generate(10);
        assertThat(BaselineRunner.reservation(group)).isEqualTo(group.stream().mapToLong(BaselineRunner::estimate).sum());
        assertThat(BaselineRunner.maxTokens(10)).isEqualTo(288);
    }

    @Test
    void shouldCutTheListIntoGroupsOfTenInOrder() {
        List<GeneratedTicket> tickets = new TicketGenerator(42).generate(25);
        List<List<GeneratedTicket>> groups = BaselineRunner.groups(tickets);
        assertThat(groups).hasSize(3);
        assertThat(groups.get(0)).isEqualTo(tickets.subList(0, 10));
        assertThat(groups.get(2)).isEqualTo(tickets.subList(20, 25));
    }

    @Test
    void shouldWaitRetryAfterSecondsElseRetryAfterMsElseOneSecond() {
        assertThat(BaselineRunner.retryAfterMs(headers(Map.of("retry-after", "2", "retry-after-ms", "1234")))).isEqualTo(2_000);
        assertThat(BaselineRunner.retryAfterMs(headers(Map.of("retry-after", "0.5")))).isEqualTo(500);
        assertThat(BaselineRunner.retryAfterMs(headers(Map.of("retry-after-ms", "1234")))).isEqualTo(1_234);
        assertThat(BaselineRunner.retryAfterMs(headers(Map.of("retry-after", "soon", "retry-after-ms", "80")))).isEqualTo(80);
        assertThat(BaselineRunner.retryAfterMs(headers(Map.of()))).isEqualTo(1_000);
    }

    @Test
    void shouldReadUsageAndOnlyTheGroupsLabelsFromAnAnswer() {
        List<GeneratedTicket> group = new TicketGenerator(42).generate(3);
        String content = "{\\\"results\\\":[{\\\"id\\\":\\\"BT-000001\\\",\\\"category\\\":\\\"billing\\\",\\\"urgency\\\":\\\"low\\\"},"
                + "{\\\"id\\\":\\\"BT-000001\\\",\\\"category\\\":\\\"other\\\",\\\"urgency\\\":\\\"low\\\"},"
                + "{\\\"id\\\":\\\"XX-1\\\",\\\"category\\\":\\\"billing\\\",\\\"urgency\\\":\\\"low\\\"},"
                + "{\\\"id\\\":\\\"BT-000002\\\",\\\"category\\\":\\\"cooking\\\",\\\"urgency\\\":\\\"low\\\"},"
                + "{\\\"id\\\":\\\"BT-000003\\\",\\\"category\\\":\\\"shipping\\\",\\\"urgency\\\":\\\"high\\\"}]}";
        String body = "{\"choices\":[{\"message\":{\"content\":\"" + content + "\"}}],\"usage\":{\"total_tokens\":777}}";
        BaselineRunner.Answer a = BaselineRunner.parse(body, group, Set.of("billing", "shipping", "other"), Set.of("low", "high"));
        assertThat(a.totalTokens()).isEqualTo(777);
        assertThat(a.labels()).containsOnlyKeys("BT-000001", "BT-000003");
        assertThat(a.labels().get("BT-000001").category()).isEqualTo("billing");
        assertThat(BaselineRunner.parse("not json", group, Set.of(), Set.of()).labels()).isEmpty();
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldClassifyEveryGroupAndCorrectTheWindowToTheReportedUsage() {
        List<GeneratedTicket> tickets = new TicketGenerator(42).generate(25);
        try (ProviderSimulator sim = ProviderSimulator.start(sim(b -> b))) {
            BaselineRunner.Outcome o = runner().run(tickets, sim.baseUrl(), SimulatorConfig.DEFAULT_MODEL, KEY, 200_000, p -> { });
            SimulatorStats stats = sim.stats();
            assertThat(o.groups()).isEqualTo(3);
            assertThat(o.classified()).isEqualTo(25);
            assertThat(o.lost()).isZero();
            assertThat(o.calls()).isEqualTo(3);
            assertThat(o.http429()).isZero();
            assertThat(o.answers()).hasSize(25);
            assertThat(o.reservedTokens()).isEqualTo(tickets.stream().mapToLong(BaselineRunner::estimate).sum());
            assertThat(o.reportedTokens()).isEqualTo(stats.promptTokens() + stats.completionTokens());
            // the provider charged max_tokens, the job corrected to what was used
            assertThat(stats.tokensAdmitted()).isGreaterThan(o.reportedTokens());
            assertThat(stats.requestsAdmitted()).isEqualTo(3);
            assertThat(o.busyMs()).isPositive();
            assertThat(o.firstCallEpochMs()).isPositive().isLessThanOrEqualTo(o.lastAnswerEpochMs());
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldWaitOutA429AndTryAgain() {
        // one request of burst: of two groups sent at once, the second gets a 429 on requests and goes after retry-after
        List<GeneratedTicket> tickets = new TicketGenerator(42).generate(20);
        try (ProviderSimulator sim = ProviderSimulator.start(sim(b -> b.rpm(60).burstSeconds(1)))) {
            long start = System.currentTimeMillis();
            BaselineRunner.Outcome o = runner().run(tickets, sim.baseUrl(), SimulatorConfig.DEFAULT_MODEL, KEY, 200_000, p -> { });
            assertThat(o.classified()).isEqualTo(20);
            assertThat(o.lost()).isZero();
            assertThat(o.http429()).isPositive();
            assertThat(o.calls()).isEqualTo(2 + o.http429());
            assertThat(sim.stats().http429()).isEqualTo(o.http429());
            assertThat(System.currentTimeMillis() - start).isGreaterThanOrEqualTo(900);
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldLoseAGroupThatFailsFiveTries() {
        // a huge ticket does not fit the provider's context: its whole group is refused five times and lost
        List<GeneratedTicket> tickets = new ArrayList<>();
        tickets.add(new TicketGenerator(42, 1.0).ticket(0));
        new TicketGenerator(42).generate(40).stream().filter(t -> !t.isLong()).limit(19).forEach(tickets::add);
        try (ProviderSimulator sim = ProviderSimulator.start(sim(b -> b.contextTokens(6_000)))) {
            BaselineRunner.Outcome o = runner().run(tickets, sim.baseUrl(), SimulatorConfig.DEFAULT_MODEL, KEY, 200_000, p -> { });
            assertThat(o.lostGroups()).isEqualTo(1);
            assertThat(o.lost()).isEqualTo(10);
            assertThat(o.classified()).isEqualTo(10);
            assertThat(o.failuresByStatus()).containsEntry("400", 5L);
            assertThat(o.calls()).isEqualTo(6);
            assertThat(sim.stats().contextLengthRefusals()).isEqualTo(5);
        }
    }

    private static BaselineRunner runner() {
        return new BaselineRunner(new BaselineRunner.Options(7, Duration.ofSeconds(25), Duration.ofMillis(100)));
    }

    private static SimulatorConfig sim(java.util.function.UnaryOperator<SimulatorConfig.Builder> shape) {
        return shape.apply(SimulatorConfig.builder().port(0).noLatency().apiKeys(Set.of(KEY))).build();
    }

    private static HttpHeaders headers(Map<String, String> values) {
        Map<String, List<String>> map = new java.util.HashMap<>();
        values.forEach((k, v) -> map.put(k, List.of(v)));
        return HttpHeaders.of(map, ALL);
    }
}
