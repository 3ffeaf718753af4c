package io.quotaflow.dispatch.report;

import io.quotaflow.dispatch.queue.PendingQueue;
import io.quotaflow.dispatch.queue.RefBuilder;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The order a class's waiting tickets are expected to be served in: tenants taking turns by tokens. */
class QueueViewsTest {

    private static PendingQueue.Ref ref(String id, String tenant, int tokens, long at) {
        return RefBuilder.ref(id).tenant(tenant).tokens(tokens).at(at).bytes(0).build();
    }

    @Test
    void shouldInterleaveTenantsThatArrivedOneAfterTheOther() {
        List<PendingQueue.Ref> byArrival = List.of(ref("a1", "a", 100, 1), ref("a2", "a", 100, 2), ref("a3", "a", 100, 3),
                ref("b1", "b", 100, 4), ref("b2", "b", 100, 5));

        assertThat(QueueViews.served(byArrival, PendingQueue.Ref::tokens, t -> 1.0)).extracting(PendingQueue.Ref::id).containsExactly("a1", "b1", "a2", "b2", "a3");
    }

    @Test
    void shouldGiveATenantOfLongTicketsFewerTurns() {
        List<PendingQueue.Ref> byArrival = List.of(ref("long1", "l", 300, 1), ref("long2", "l", 300, 2), ref("s1", "s", 100, 3),
                ref("s2", "s", 100, 4), ref("s3", "s", 100, 5), ref("s4", "s", 100, 6));

        assertThat(QueueViews.served(byArrival, PendingQueue.Ref::tokens, t -> 1.0)).extracting(PendingQueue.Ref::id)
                .containsExactly("s1", "s2", "long1", "s3", "s4", "long2");
    }

    @Test
    void shouldGiveAHeavierTenantMoreTurns() {
        List<PendingQueue.Ref> byArrival = List.of(ref("q1", "quiet", 100, 1), ref("q2", "quiet", 100, 2), ref("n1", "noisy", 100, 3),
                ref("n2", "noisy", 100, 4), ref("n3", "noisy", 100, 5), ref("n4", "noisy", 100, 6));

        // noisy weighted 3: three of its tickets to one of quiet's
        assertThat(QueueViews.served(byArrival, PendingQueue.Ref::tokens, t -> t.equals("noisy") ? 3.0 : 1.0))
                .extracting(PendingQueue.Ref::id).containsExactly("n1", "n2", "q1", "n3", "n4", "q2");
    }

    @Test
    void shouldKeepOneTenantInArrivalOrder() {
        List<PendingQueue.Ref> byArrival = List.of(ref("x", "t", 500, 1), ref("y", "t", 5, 2), ref("z", "t", 50, 3));

        assertThat(QueueViews.served(byArrival, PendingQueue.Ref::tokens, t -> 1.0)).extracting(PendingQueue.Ref::id).containsExactly("x", "y", "z");
    }

    @Test
    void shouldMeasureThePaceOfARouteWithoutLimits() {
        io.quotaflow.settings.DispatcherSettings settings = io.quotaflow.settings.DispatcherSettings.builder(io.quotaflow.testing.Fixtures.model(),
                io.quotaflow.settings.QuotaSettings.ofDefaults().withRpm(io.quotaflow.settings.QuotaSettings.NONE)
                        .withTpm(io.quotaflow.settings.QuotaSettings.NONE),
                io.quotaflow.settings.BatchSettings.ofDefaults(), io.quotaflow.settings.RetrySettings.ofDefaults()).build();
        io.quotaflow.status.Pace pace = new io.quotaflow.status.Pace();
        for (int i = 0; i <= 10; i++) {
            pace.admitted(1_000_000L + i * 500L, 2, 200, 400);
        }

        io.quotaflow.status.Eta.Rates rates = QueueViews.rates(settings, pace, 10, 1_000, 1_005_000);

        assertThat(rates.measured()).isTrue();
        assertThat(rates.ticketsPerSecond()).as("2 tickets every 0.5 s, no ceiling").isCloseTo(4.0, org.assertj.core.data.Offset.offset(0.5));
        assertThat(QueueViews.rates(settings, new io.quotaflow.status.Pace(), 10, 1_000, 1_005_000).ticketsPerSecond())
                .as("nothing measured: no limit binds").isGreaterThan(1_000);
    }

    @Test
    void shouldTakeWhatTheProviderAdmitsWhileTheLimitsBindAboveTheLimitsAtOurCharge() {
        // 60,000 TPM × 0.98: 980 charged tokens a second; we charge 196 a ticket, so the limits at our charge say 5 a second
        io.quotaflow.settings.DispatcherSettings settings = io.quotaflow.settings.DispatcherSettings.builder(io.quotaflow.testing.Fixtures.model(),
                io.quotaflow.settings.QuotaSettings.ofDefaults().withRpm(10_000).withTpm(60_000),
                io.quotaflow.settings.BatchSettings.ofDefaults(), io.quotaflow.settings.RetrySettings.ofDefaults()).build();
        io.quotaflow.status.Pace unbound = new io.quotaflow.status.Pace();
        io.quotaflow.status.Pace held = new io.quotaflow.status.Pace();
        // the provider counts less than we charge and admits 7 tickets a second: a call of 7 every second
        for (int i = 0; i <= 10; i++) {
            unbound.admitted(1_000_000L + i * 1_000L, 7, 700, 7 * 196);
            held.admitted(1_000_000L + i * 1_000L, 7, 700, 7 * 196);
            held.held(1_000_000L + i * 1_000L);
        }

        io.quotaflow.status.Eta.Rates asHeld = QueueViews.rates(settings, held, 100, 10_000, 1_010_000);
        io.quotaflow.status.Eta.Rates asUnbound = QueueViews.rates(settings, unbound, 100, 10_000, 1_010_000);

        assertThat(asHeld.ticketsPerSecond()).as("what the provider admitted").isCloseTo(7.0, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(asHeld.measured()).isTrue();
        assertThat(asUnbound.ticketsPerSecond()).as("never held back: held to the limits at our charge")
                .isCloseTo(5.0, org.assertj.core.data.Offset.offset(1e-6));
    }
}
