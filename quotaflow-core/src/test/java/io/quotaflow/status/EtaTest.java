package io.quotaflow.status;

import io.quotaflow.records.Priority;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The ETA arithmetic: tokens or tickets ahead at the scope's pace, then one latency. */
class EtaTest {

    private static final long NOW = 1_700_000_000_000L;

    @Test
    void shouldStartOnceTheTokensAheadAreAdmittedWhenTokensBind() {
        Eta.Rates rates = new Eta.Rates(1_000, 100, 800, true);

        Eta.Estimate e = Eta.of(NOW, 30_000, 50, rates, 0);

        assertThat(e.startAt()).isEqualTo(NOW + 30_000);
        assertThat(e.doneAt()).isEqualTo(NOW + 30_800);
    }

    @Test
    void shouldStartOnceTheTicketsAheadAreAdmittedWhenCallsBind() {
        Eta.Rates rates = new Eta.Rates(1_000_000, 2, 500, true);

        Eta.Estimate e = Eta.of(NOW, 10_000, 20, rates, 0);

        assertThat(e.startAt()).isEqualTo(NOW + 10_000);
        assertThat(e.doneAt()).isEqualTo(NOW + 10_500);
    }

    @Test
    void shouldStartNowAtTheHeadOfTheQueue() {
        Eta.Estimate e = Eta.of(NOW, 0, 0, new Eta.Rates(10, 1, 1_200, false), 0);

        assertThat(e).isEqualTo(new Eta.Estimate(NOW, NOW + 1_200));
    }

    @Test
    void shouldNotStartADelayedTicketBeforeItIsDue() {
        Eta.Estimate e = Eta.of(NOW, 500, 5, new Eta.Rates(100, 10, 0, true), NOW + 60_000);

        assertThat(e.startAt()).isEqualTo(NOW + 65_000);
    }

    @Test
    void shouldFinishASentCallOneLatencyAfterItWentOutAndNeverInThePast() {
        Eta.Rates rates = new Eta.Rates(100, 10, 2_000, true);

        assertThat(Eta.sent(NOW, NOW - 500, rates)).isEqualTo(new Eta.Estimate(NOW - 500, NOW + 1_500));
        assertThat(Eta.sent(NOW, NOW - 5_000, rates).doneAt()).as("overdue: any moment now").isEqualTo(NOW);
    }

    @Test
    void shouldTakeTheConfiguredPaceAsTheTicketsShareOfTheTokenLimit() {
        // 60,000 TPM at 0.9 = 900 tokens/s; tickets of 300 tokens beside 100 completion tokens get 3/4 of it
        Eta.Rates rates = Eta.configured(60_000, 120, 0.9, 300, 100, 10, 700);

        assertThat(rates.tokensPerSecond()).isEqualTo(675.0);
        assertThat(rates.ticketsPerSecond()).isEqualTo(18.0);
        assertThat(rates.latencyMs()).isEqualTo(700);
        assertThat(rates.measured()).isFalse();
    }

    @Test
    void shouldRefuseNonPositiveRatesAndNegativeQueues() {
        assertThatThrownBy(() -> new Eta.Rates(0, 1, 0, true)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Eta.Rates(1, Double.NaN, 0, true)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Eta.of(NOW, -1, 0, new Eta.Rates(1, 1, 0, true), 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldCountTheRetriesDueBeforeTheTicketWouldGo() {
        Eta.Rates rates = new Eta.Rates(100, 1_000, 500, true);
        // 1,000 tokens ahead: it would go in 10 s; a retry of 500 due in 4 s rejoins first (15 s), then one due in 12 s (20 s)
        List<QueueView.Retry> retries = List.of(new QueueView.Retry(NOW + 4_000, Priority.BULK, 500),
                new QueueView.Retry(NOW + 12_000, Priority.BULK, 500), new QueueView.Retry(NOW + 30_000, Priority.BULK, 500));

        Eta.Estimate e = Eta.of(NOW, 1_000, 10, rates, 0, retries);

        assertThat(e.startAt()).isEqualTo(NOW + 20_000);
        assertThat(e.doneAt()).isEqualTo(NOW + 20_500);
        assertThat(Eta.of(NOW, 1_000, 10, rates, 0, List.of())).isEqualTo(Eta.of(NOW, 1_000, 10, rates, 0));
    }

    @Test
    void shouldLeaveOutRetriesDueOnlyAfterTheTicketWent() {
        Eta.Rates rates = new Eta.Rates(100, 1_000, 0, true);

        Eta.Estimate e = Eta.of(NOW, 500, 5, rates, 0, List.of(new QueueView.Retry(NOW + 5_000, Priority.BULK, 9_000)));

        assertThat(e.startAt()).as("due exactly when it goes: it comes back behind it").isEqualTo(NOW + 5_000);
    }
}
