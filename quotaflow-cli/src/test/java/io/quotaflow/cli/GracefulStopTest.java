package io.quotaflow.cli;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The shutdown helper with the hook in a stand-in registry: the test plays the JVM and runs it. */
class GracefulStopTest {

    private final RecordingHooks hooks = new RecordingHooks();
    private final AtomicInteger stopRequests = new AtomicInteger();

    @Test
    void shouldAskTheWorkToStopThenHoldTheJvmUntilTheWorkIsFinished() throws Exception {
        GracefulStop stop = GracefulStop.install("test", stopRequests::incrementAndGet, Duration.ofSeconds(30), hooks);
        assertThat(hooks.added).singleElement().satisfies(t -> assertThat(t.getName()).isEqualTo("quotaflow-test-shutdown"));

        Thread hook = hooks.signal();
        stop.awaitStopRequest();
        hook.join(200);

        assertThat(stopRequests).hasValue(1);
        assertThat(hook.isAlive()).as("the hook waits for the work to finish").isTrue();
        stop.close();
        hook.join(TimeUnit.SECONDS.toMillis(5));
        assertThat(hook.isAlive()).as("finished: the hook returns and the JVM may go").isFalse();
    }

    @Test
    void shouldLetTheJvmGoAfterTheWaitWhenTheWorkNeverFinishes() throws Exception {
        GracefulStop.install("stuck", stopRequests::incrementAndGet, Duration.ofMillis(100), hooks);
        long started = System.nanoTime();

        Thread hook = hooks.signal();
        hook.join(TimeUnit.SECONDS.toMillis(5));

        assertThat(hook.isAlive()).isFalse();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isBetween(90L, 4_000L);
        assertThat(stopRequests).hasValue(1);
    }

    @Test
    void shouldRemoveItsHookWhenTheWorkEndsWithoutASignal() {
        try (GracefulStop stop = GracefulStop.install("done", stopRequests::incrementAndGet, Duration.ofSeconds(1), hooks)) {
            assertThat(hooks.removed).isEmpty();
        }

        assertThat(hooks.removed).isEqualTo(hooks.added).hasSize(1);
        assertThat(stopRequests).as("nothing asked the work to stop").hasValue(0);
    }

    @Test
    void shouldEndTheJvmWithTheCommandsOwnStatusAfterASignal() throws Exception {
        GracefulStop stop = GracefulStop.install("clean", stopRequests::incrementAndGet, Duration.ofSeconds(30), hooks);

        Thread hook = hooks.signal();
        stop.awaitStopRequest();
        hooks.exitStatus = java.util.Optional.of(ExitCodes.OK); // what main hands over: the command's status
        stop.close();
        hook.join(TimeUnit.SECONDS.toMillis(5));

        assertThat(hook.isAlive()).isFalse();
        assertThat(hooks.halted).as("0, not the JVM's 128 + 15").containsExactly(0);
    }

    @Test
    void shouldEndTheJvmWithAFailureWhenTheWorkDoesNotFinishInTime() throws Exception {
        GracefulStop.install("late", stopRequests::incrementAndGet, Duration.ofMillis(100), hooks);

        Thread hook = hooks.signal();
        hook.join(TimeUnit.SECONDS.toMillis(5));

        assertThat(hooks.halted).containsExactly(ExitCodes.FAILURE);
    }
}
