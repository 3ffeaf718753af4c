package io.quotaflow.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ShareWindowTest {

    @Test
    void shouldCloseAtTheLastAdmissionOfTheFirstTenantToFinish() {
        ShareWindow w = new ShareWindow(10);
        assertThat(w.add(new ShareWindow.Sample(100, 300, 100, 2, 1))).isFalse();
        assertThat(w.add(new ShareWindow.Sample(200, 900, 300, 8, 2))).isFalse();
        // the heavy tenant's last admission; its tickets are still being answered
        assertThat(w.add(new ShareWindow.Sample(300, 900, 400, 9, 3))).isFalse();
        assertThat(w.add(new ShareWindow.Sample(400, 900, 700, 10, 4))).isTrue();

        assertThat(w.end().elapsedMs()).isEqualTo(200);
        assertThat(w.tokenRatio()).isCloseTo(3.0, within(1e-9));
        assertThat(w.ticketRatio()).isCloseTo(4.0, within(1e-9));
        assertThat(w.add(new ShareWindow.Sample(500, 900, 2_000, 10, 9))).as("closed stays closed").isTrue();
        assertThat(w.end().elapsedMs()).isEqualTo(200);
    }

    @Test
    void shouldCloseWhenATenantThatWaitedHasNothingLeftWaitingSoALateRetryIsNoShare() {
        ShareWindow w = new ShareWindow(10);
        assertThat(w.add(new ShareWindow.Sample(100, 0, 0, 0, 0, 0, 0))).as("nothing has arrived yet").isFalse();
        assertThat(w.add(new ShareWindow.Sample(200, 300, 100, 2, 1, 8, 9))).isFalse();
        assertThat(w.add(new ShareWindow.Sample(300, 900, 300, 8, 2, 0, 7))).isTrue();
        assertThat(w.end().elapsedMs()).isEqualTo(300);
        assertThat(w.tokenRatio()).isCloseTo(3.0, within(1e-9));
    }

    @Test
    void shouldStayOpenWhileBothHaveWork() {
        ShareWindow w = new ShareWindow(10);
        w.add(new ShareWindow.Sample(100, 30, 10, 9, 9));
        assertThat(w.closed()).isFalse();
        assertThat(w.tokenRatio()).isNaN();
    }

    @Test
    void shouldGiveTheTenantsTicketsOfDifferentSizes() {
        var tickets = TenantShareRunner.tickets(42, TenantPlan.benchLUnequal(50));
        assertThat(tickets).hasSize(100);
        var alike = TenantShareRunner.tickets(42, TenantPlan.benchL(50));
        double gold = alike.stream().filter(t -> t.tenant().equals("gold")).mapToInt(t -> t.body().length()).average().orElseThrow();
        double noisy = alike.stream().filter(t -> t.tenant().equals("noisy")).mapToInt(t -> t.body().length()).average().orElseThrow();
        assertThat(noisy / gold).as("bench (l): tickets alike").isBetween(0.7, 1.4);
        double heavy = tickets.stream().filter(t -> t.tenant().equals("gold")).mapToInt(t -> t.body().length())
                .average().orElseThrow();
        double light = tickets.stream().filter(t -> t.tenant().equals("noisy")).mapToInt(t -> t.body().length())
                .average().orElseThrow();
        assertThat(light / heavy).isBetween(2.0, 4.5);
        var demo = TenantShareRunner.tickets(42, TenantPlan.demo());
        assertThat(demo.stream().filter(t -> t.tenant().equals("quiet"))).hasSize(150);
        assertThat(demo.stream().filter(t -> t.tenant().equals("noisy"))).hasSize(900);
        assertThat(demo.subList(0, 70).stream().filter(t -> t.tenant().equals("quiet")).count()).as("interleaved").isBetween(8L, 12L);
        assertThat(tickets).allSatisfy(t -> assertThat(t.priority()).isEqualTo(io.quotaflow.records.Priority.BULK));
    }

    @Test
    void shouldPassOnlyOnTargetWithNo429sAndNothingDeadLettered() {
        TenantPlan plan = TenantPlan.benchLUnequal(1_500);
        assertThat(new TenantShareResult(plan, 60_000, 300_000, 100_000, 1_500, 170, 60_000, -1, 1_670, 0, 0).passed()).isTrue();
        TenantPlan alike = TenantPlan.benchL(1_500);
        assertThat(new TenantShareResult(alike, 60_000, 300_000, 100_000, 1_500, 500, 60_000, -1, 2_000, 0, 0).passed()).isTrue();
        assertThat(new TenantShareResult(alike, 60_000, 300_000, 100_000, 1_500, 170, 60_000, -1, 1_670, 0, 0).passed())
                .as("tickets alike: the ticket ratio must be on target too").isFalse();
        assertThat(new TenantShareResult(plan, 60_000, 200_000, 100_000, 1_500, 170, 60_000, -1, 1_670, 0, 0).passed()).isFalse();
        assertThat(new TenantShareResult(plan, 60_000, 300_000, 100_000, 1_500, 170, 60_000, -1, 1_670, 1, 0).passed()).isFalse();
        TenantShareResult demo = new TenantShareResult(TenantPlan.demo(), 9_000, 20_000, 10_000, 150, 30, 9_000, 80_000, 1_050, 0, 0);
        assertThat(demo.clean()).isTrue();
        assertThat(demo.demoReport()).contains("quiet  classified 150, done after 9.0 s").contains("= 2.00");
    }
}
