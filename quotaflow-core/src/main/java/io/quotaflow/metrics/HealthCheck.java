package io.quotaflow.metrics;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.records.Json;
import org.apache.kafka.streams.KafkaStreams;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The two probes (docs/design.md, Observability). Liveness: the process answers and its stream
 * threads are alive, not failing over and over; a halted route does not make it fail, since a restart cannot fix a revoked
 * key. Readiness: this instance can serve (its streams run, or rebalance after having run, and no stream
 * thread failed in the last minute). Route health (a halt, an open circuit, a spent day) is shared by every
 * instance, so it never makes one unready: it is for {@code /status}, the metrics and the alerts, and the
 * ready probe's body names it ({@code haltedRoutes}, {@code routeStates}) without changing its status.
 */
public final class HealthCheck {

    private static final Set<KafkaStreams.State> STOPPED = Set.of(KafkaStreams.State.PENDING_ERROR, KafkaStreams.State.ERROR,
            KafkaStreams.State.PENDING_SHUTDOWN, KafkaStreams.State.NOT_RUNNING);

    /** A probe's answer: UP (200) or DOWN (503), with the streams' state, halted routes and why it is DOWN. */
    public record Report(boolean up, KafkaStreams.State streams, Map<String, String> haltedRoutes, List<String> reasons,
                  Map<String, String> routeStates) {

        public Report {
            haltedRoutes = Map.copyOf(haltedRoutes);
            reasons = List.copyOf(reasons);
            routeStates = Map.copyOf(routeStates);
        }

        Report(boolean up, KafkaStreams.State streams, Map<String, String> haltedRoutes, List<String> reasons) {
            this(up, streams, haltedRoutes, reasons, Map.of());
        }

        /** The same report naming the routes that cannot serve ({@code "routeStates"}); its status is unchanged. */
        public Report withRouteStates(Map<String, String> states) {
            return new Report(up, streams, haltedRoutes, reasons, states);
        }

        public int status() {
            return up ? 200 : 503;
        }

        public String json() {
            ObjectNode body = Json.MAPPER.createObjectNode();
            body.put("status", up ? "UP" : "DOWN");
            body.put("streams", String.valueOf(streams));
            body.set("haltedRoutes", Json.MAPPER.valueToTree(new java.util.TreeMap<>(haltedRoutes)));
            if (!routeStates.isEmpty()) {
                body.set("routeStates", Json.MAPPER.valueToTree(new java.util.TreeMap<>(routeStates)));
            }
            if (!reasons.isEmpty()) {
                body.put("reason", String.join("; ", reasons));
            }
            return body.toString();
        }
    }

    private HealthCheck() {
    }

    /**
     * Liveness: DOWN when the streams stopped, when no stream thread is alive, or when the stream
     * threads keep failing ({@code notLiveReason}, from {@link PipelineMetrics#notLiveReason}: each is
     * replaced, so some thread is always alive, yet nothing is processed).
     */
    public static Report live(KafkaStreams.State state, int aliveThreads, String notLiveReason, Map<String, String> halted) {
        if (STOPPED.contains(state)) {
            return new Report(false, state, halted, List.of("the streams have stopped (" + state + "); see the log"));
        }
        if (aliveThreads == 0 && state != KafkaStreams.State.CREATED) {
            return new Report(false, state, halted, List.of("no stream thread is alive"));
        }
        if (notLiveReason != null) {
            return new Report(false, state, halted, List.of(notLiveReason));
        }
        return new Report(true, state, halted, List.of());
    }

    /**
     * Readiness: UP while the streams are {@code RUNNING}, or {@code REBALANCING} after having run, and no
     * {@code notReadyReason} holds; {@code halted} routes are reported in the body only (every instance shares a
     * provider's refusal: failing readiness on it would take every instance out of the Service at once).
     */
    public static Report ready(KafkaStreams.State state, boolean wasRunning, String notReadyReason, Map<String, String> halted) {
        List<String> reasons = new java.util.ArrayList<>();
        boolean working = state == KafkaStreams.State.RUNNING || state == KafkaStreams.State.REBALANCING && wasRunning;
        if (!working) {
            reasons.add(state == KafkaStreams.State.REBALANCING || state == KafkaStreams.State.CREATED
                    ? "the streams are starting (" + state + ")" : "the streams are " + state);
        }
        if (notReadyReason != null) {
            reasons.add(notReadyReason);
        }
        return new Report(reasons.isEmpty(), state, halted, reasons);
    }
}
