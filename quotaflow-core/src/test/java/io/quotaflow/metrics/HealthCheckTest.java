package io.quotaflow.metrics;

import org.apache.kafka.streams.KafkaStreams.State;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class HealthCheckTest {

    private static final Map<String, String> HALTED = Map.of("default", "HTTP 401: Incorrect API key provided");

    @Test
    void shouldStayLiveWhileARouteIsHalted() {
        HealthCheck.Report live = HealthCheck.live(State.RUNNING, 2, null, HALTED);
        assertThat(live.status()).isEqualTo(200);
        assertThat(live.json()).contains("\"status\":\"UP\"", "\"haltedRoutes\":{\"default\":\"HTTP 401: Incorrect API key provided\"}");
    }

    @Test
    void shouldFailLivenessWhenTheStreamsStoppedOrNoThreadIsAlive() {
        for (State stopped : new State[] {State.ERROR, State.PENDING_ERROR, State.NOT_RUNNING, State.PENDING_SHUTDOWN}) {
            assertThat(HealthCheck.live(stopped, 1, null, Map.of()).status()).as(stopped.name()).isEqualTo(503);
        }
        HealthCheck.Report noThread = HealthCheck.live(State.RUNNING, 0, null, Map.of());
        assertThat(noThread.status()).isEqualTo(503);
        assertThat(noThread.json()).contains("no stream thread is alive");
        assertThat(HealthCheck.live(State.REBALANCING, -1, null, Map.of()).status()).as("cannot tell yet").isEqualTo(200);
        assertThat(HealthCheck.live(State.CREATED, 0, null, Map.of()).status()).as("not started yet").isEqualTo(200);
    }

    @Test
    void shouldFailLivenessWhenTheStreamThreadsKeepFailingThoughAReplacementIsAlive() {
        HealthCheck.Report live = HealthCheck.live(State.RUNNING, 1, "stream threads failed 3 times in 90 s", Map.of());
        assertThat(live.status()).isEqualTo(503);
        assertThat(live.json()).contains("\"status\":\"DOWN\"", "stream threads failed 3 times in 90 s");
        assertThat(HealthCheck.live(State.REBALANCING, 1, "stream threads failed 3 times in 90 s", Map.of()).status()).isEqualTo(503);
    }

    @Test
    void shouldStayReadyAndNameTheHaltWhileARouteIsHalted() {
        HealthCheck.Report ready = HealthCheck.ready(State.RUNNING, true, null, HALTED);
        assertThat(ready.status()).isEqualTo(200);
        assertThat(ready.json()).contains("\"status\":\"UP\"", "\"streams\":\"RUNNING\"",
                "\"haltedRoutes\":{\"default\":\"HTTP 401: Incorrect API key provided\"}").doesNotContain("\"reason\"");
        HealthCheck.Report routine = HealthCheck.ready(State.REBALANCING, true, null, HALTED).withRouteStates(Map.of("default",
                "halted: HTTP 401"));
        assertThat(routine.status()).as("a routine rebalance while halted").isEqualTo(200);
        assertThat(routine.json()).contains("\"routeStates\":{\"default\":\"halted: HTTP 401\"}");
    }

    @Test
    void shouldFailReadinessOnTheStreamsNotOnTheRoutes() {
        HealthCheck.Report starting = HealthCheck.ready(State.REBALANCING, false, null, HALTED);
        assertThat(starting.status()).isEqualTo(503);
        assertThat(starting.json()).contains("the streams are starting (REBALANCING)").doesNotContain("is halted");
        assertThat(HealthCheck.ready(State.ERROR, true, null, HALTED).status()).isEqualTo(503);
    }

    @Test
    void shouldBeReadyOnlyOnceTheStreamsHaveRun() {
        assertThat(HealthCheck.ready(State.RUNNING, true, null, Map.of()).status()).isEqualTo(200);
        assertThat(HealthCheck.ready(State.REBALANCING, false, null, Map.of()).json()).contains("the streams are starting");
        assertThat(HealthCheck.ready(State.REBALANCING, false, null, Map.of()).status()).isEqualTo(503);
        assertThat(HealthCheck.ready(State.REBALANCING, true, null, Map.of()).status()).as("a routine rebalance").isEqualTo(200);
        assertThat(HealthCheck.ready(State.PENDING_SHUTDOWN, true, null, Map.of()).status()).isEqualTo(503);
    }

    @Test
    void shouldReportAFailedStreamThreadAsNotReady() {
        HealthCheck.Report ready = HealthCheck.ready(State.RUNNING, true, "a stream thread failed 3 s ago", Map.of());
        assertThat(ready.status()).isEqualTo(503);
        assertThat(ready.json()).contains("a stream thread failed 3 s ago");
    }
}
