package io.quotaflow.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.records.Json;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The child processes of a chaos run: the broker ({@code quotaflow broker --dir}) and the pipeline
 * ({@code quotaflow run}), each (re)started with the same arguments, its log in a file of its own,
 * and watched: a child that dies without being killed, or streams that fail, end the run.
 */
final class ChaosChildren {

    static final String BROKER_READY = "Kafka broker ready at";
    static final int MAX_BROKER_STARTS_PER_RESTART = 5;

    private final ChaosRunner.Options options;
    private final ChaosRunner.Listener listener;
    private final Scenario scenario;
    private final Path logDir;
    private final Path kafkaDir;
    private final Path stateDir;
    private final int brokerPort;
    private final int httpPort;
    private final String bootstrap;
    private final String apiKey;
    private final List<ChildProcess> children = new CopyOnWriteArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
    private ChildProcess broker;
    private ChildProcess pipeline;
    private int brokerStarts;
    private int pipelineStarts;
    private long lastStatusPollMs;
    private String lastStreamsState = "?";

    /**
     * @param root where the logs ({@code logs/}), the broker's data ({@code kafka/}) and the
     *             pipeline's state ({@code state/}) go
     */
    ChaosChildren(ChaosRunner.Options options, ChaosRunner.Listener listener, Scenario scenario, Path root, String apiKey)
            throws IOException {
        this.options = options;
        this.listener = listener;
        this.scenario = scenario;
        this.logDir = Files.createDirectories(root.resolve("logs"));
        this.kafkaDir = root.resolve("kafka");
        this.stateDir = root.resolve("state");
        this.brokerPort = freePort(-1);
        this.httpPort = freePort(brokerPort);
        this.bootstrap = "localhost:" + brokerPort;
        this.apiKey = apiKey;
    }

    Path logDir() {
        return logDir;
    }

    String bootstrap() {
        return bootstrap;
    }

    int brokerPort() {
        return brokerPort;
    }

    ChildProcess broker() {
        return broker;
    }

    ChildProcess pipeline() {
        return pipeline;
    }

    /** The streams state last reported by the pipeline's {@code /status} ("?" before the first answer). */
    String lastStreamsState() {
        return lastStreamsState;
    }

    /** Kills every child at once (the shutdown hook). */
    void destroyAll() {
        children.forEach(ChildProcess::destroyNow);
    }

    /** Stops every child, giving the broker longer to shut down cleanly. */
    void stopAll() {
        for (ChildProcess c : children) {
            c.stop(Duration.ofSeconds(c == broker ? 20 : 5));
        }
        children.clear();
    }

    void startBrokerAndWait() throws InterruptedException {
        startBroker();
        long deadline = System.currentTimeMillis() + 120_000;
        while (!broker.logContains(BROKER_READY)) {
            if (!broker.alive()) {
                throw new IllegalStateException("the broker exited with code " + broker.exitCode() + "; " + broker.log() + ":\n"
                        + broker.lastLines(20));
            }
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("the broker did not start within 120 s; see " + broker.log());
            }
            Thread.sleep(100);
        }
        listener.phase("broker (pid " + broker.pid() + ") ready at " + bootstrap + ", data in " + kafkaDir);
    }

    void startBroker() {
        brokerStarts++;
        broker = spawn("broker", List.of("broker", "--port", Integer.toString(brokerPort), "--dir", kafkaDir.toString()),
                Map.of(), List.of(), logDir.resolve("broker-" + brokerStarts + ".log"));
    }

    /** Starts (or restarts) the pipeline against the provider at {@code simBaseUrl}. */
    void startPipeline(String simBaseUrl) {
        pipelineStarts++;
        lastStreamsState = "starting";
        pipeline = spawn("pipeline", ChaosRunner.pipelineArgs(bootstrap, simBaseUrl, scenario, stateDir, httpPort),
                Map.of(ChaosRunner.API_KEY_ENV, apiKey),
                // INFO, so that the log shows Kafka Streams' state transitions with their times
                List.of("-Dquotaflow.log.others=INFO"),
                logDir.resolve("pipeline-" + pipelineStarts + ".log"));
    }

    private ChildProcess spawn(String name, List<String> args, Map<String, String> env, List<String> extraJvmArgs, Path log) {
        List<String> jvm = new ArrayList<>(options.childJvmArgs());
        jvm.addAll(extraJvmArgs);
        ChildProcess c = ChildProcess.start(name, ChildProcess.command(jvm, args), env, log);
        children.removeIf(old -> old.name().equals(name) && !old.alive());
        children.add(c);
        return c;
    }

    /** Fails the run when a child died without being killed, or the pipeline's streams failed. */
    void checkChildren(ChaosRecovery pending) {
        boolean brokerExpectedDown = pending != null && pending.kill.target() == ChaosPlan.Target.BROKER
                && (pending.restartedAt == null || pending.readyAt == null);
        if (!broker.alive()) {
            if (brokerExpectedDown && pending.restartedAt != null) {
                // the restarted broker died before it was ready (a port not yet released, ...): try again
                if (pending.restarts >= MAX_BROKER_STARTS_PER_RESTART) {
                    throw new IllegalStateException("the broker failed to restart " + pending.restarts + " times; " + broker.log()
                            + ":\n" + broker.lastLines(20));
                }
                listener.phase("the restarted broker exited with code " + broker.exitCode() + " before it was ready; retrying ("
                        + broker.log().getFileName() + ")");
                startBroker();
                pending.restarted(System.currentTimeMillis());
            } else if (!brokerExpectedDown) {
                throw new IllegalStateException("the broker exited unexpectedly with code " + broker.exitCode() + "; " + broker.log()
                        + ":\n" + broker.lastLines(20));
            }
        }
        if (!pipeline.alive()) {
            throw new IllegalStateException("the pipeline exited unexpectedly with code " + pipeline.exitCode() + "; " + pipeline.log()
                    + ":\n" + pipeline.lastLines(30));
        }
        if (Set.of("ERROR", "PENDING_ERROR", "NOT_RUNNING").contains(lastStreamsState)) {
            throw new IllegalStateException("the pipeline's streams are " + lastStreamsState + "; see " + pipeline.log());
        }
    }

    /** Streams RUNNING within {@code timeout}: milliseconds since {@code since}. */
    long awaitRunning(Duration timeout, long since) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        while (System.currentTimeMillis() < deadline) {
            if (!pipeline.alive()) {
                throw new IllegalStateException("the pipeline exited with code " + pipeline.exitCode() + "; " + pipeline.log() + ":\n"
                        + pipeline.lastLines(30));
            }
            if ("RUNNING".equals(pollStatusIfDue(System.currentTimeMillis(), 0))) {
                return System.currentTimeMillis() - since;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the pipeline's streams were not RUNNING within " + timeout.toSeconds() + " s (last state "
                + lastStreamsState + "); see " + pipeline.log());
    }

    /** GET /status at most every {@code minIntervalMs}; returns the streams state last seen ("?" until the server answers). */
    String pollStatusIfDue(long now, long minIntervalMs) {
        if (now - lastStatusPollMs < minIntervalMs) {
            return lastStreamsState;
        }
        lastStatusPollMs = now;
        String state = streamsState(http, httpPort);
        if (state != null) {
            lastStreamsState = state;
        }
        return state == null ? "unreachable" : state;
    }

    /**
     * Waits until {@code child}'s streams report RUNNING on its {@code /status} at {@code port}: true
     * then, false at {@code deadlineMs}; an {@link IllegalStateException} with the end of its log when
     * it exits first.
     */
    static boolean awaitRunning(HttpClient http, int port, ChildProcess child, long deadlineMs) throws InterruptedException {
        while (!"RUNNING".equals(streamsState(http, port))) {
            if (!child.alive()) {
                throw new IllegalStateException(child.name() + " exited with code " + child.exitCode() + "; " + child.log() + ":\n"
                        + child.lastLines(30));
            }
            if (System.currentTimeMillis() > deadlineMs) {
                return false;
            }
            Thread.sleep(100);
        }
        return true;
    }

    /** The {@code streams} field of {@code GET /status}, or null when the server does not answer. */
    static String streamsState(HttpClient http, int port) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/status"))
                    .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return null;
            }
            JsonNode json = Json.MAPPER.readTree(response.body());
            return json.path("streams").asText(null);
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    static int freePort(int avoid) throws IOException {
        for (int attempt = 0; attempt < 20; attempt++) {
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                if (socket.getLocalPort() != avoid) {
                    return socket.getLocalPort();
                }
            }
        }
        throw new IOException("cannot find a free port");
    }
}
