package io.quotaflow.bench;

import io.quotaflow.Pipeline;
import org.apache.kafka.streams.KafkaStreams;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One pipeline instance of a benchmark run: a {@link Pipeline} in this JVM, or {@code quotaflow run}
 * in a fresh JVM of its own ({@link OwnJvm}), which is how a deployment starts one: its code cold,
 * the broker and the provider already running.
 */
sealed interface BenchInstance extends AutoCloseable {

    /** Waits until its streams are RUNNING; false when they were not within {@code timeout}. */
    boolean awaitRunning(Duration timeout) throws InterruptedException;

    /** Why it is no longer running (a Kafka Streams error state, an exited process), or null while it runs. */
    String stopped();

    /** CPU time its own process has used so far, or null when it shares this JVM ({@link CpuUse} has its threads). */
    Duration ownCpu();

    /** Its own process's CPU by thread group ({@link JvmThreadsCpu}), or {@link JvmThreadsCpu#NONE} when it shares this JVM. */
    default JvmThreadsCpu ownThreads() {
        return JvmThreadsCpu.NONE;
    }

    @Override
    void close();

    /** A pipeline in this JVM. */
    record InProcess(Pipeline pipeline) implements BenchInstance {

        @Override
        public boolean awaitRunning(Duration timeout) throws InterruptedException {
            return pipeline.awaitRunning(timeout);
        }

        @Override
        public String stopped() {
            KafkaStreams.State state = pipeline.streams().state();
            return state == KafkaStreams.State.ERROR || state == KafkaStreams.State.NOT_RUNNING
                    || state == KafkaStreams.State.PENDING_ERROR ? state.name() : null;
        }

        @Override
        public Duration ownCpu() {
            return null;
        }

        @Override
        public void close() {
            pipeline.close(Duration.ofSeconds(20));
        }
    }

    /**
     * {@code quotaflow run} in a child JVM (this JVM's java binary and class path, the given JVM options),
     * configured by a properties file, its API key in {@code QUOTAFLOW_LLM_API_KEY} and its
     * {@code /status} on a loopback port: the benchmark reads its Kafka Streams state there.
     */
    final class OwnJvm implements BenchInstance {

        private final ChildProcess process;
        private final int httpPort;
        private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        /** Kills the child when this JVM ends first (an interrupted benchmark), so that no pipeline outlives its broker. */
        private final Thread reaper;

        private OwnJvm(ChildProcess process, int httpPort) {
            this.process = process;
            this.httpPort = httpPort;
            this.reaper = new Thread(process::destroyNow, "quotaflow-bench-reaper-" + process.name());
            Runtime.getRuntime().addShutdownHook(reaper);
        }

        /** Writes {@code properties} beside the state directory's log and starts the instance. */
        static OwnJvm start(String name, List<String> jvmArgs, String properties, String apiKey, Path stateDir, Path workDir) {
            try {
                Path config = Files.createDirectories(workDir).resolve(name + ".properties");
                Files.writeString(config, properties, StandardCharsets.UTF_8);
                int port = ChaosChildren.freePort(-1);
                ChildProcess child = ChildProcess.start(name, ChildProcess.command(jvmArgs, List.of("run", "--config", config.toString(),
                        "--state-dir", stateDir.toString(), "--http-port", Integer.toString(port))),
                        Map.of(FailoverRunner.API_KEY_ENV, apiKey), workDir.resolve(name + ".log"));
                return new OwnJvm(child, port);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start " + name + ": " + e.getMessage(), e);
            }
        }

        /** The properties of one instance: {@code settings} (bootstrap, application id, model, quota, ...) and a local HTTP port. */
        static String properties(Map<String, String> settings) {
            StringBuilder sb = new StringBuilder("http.bind=127.0.0.1\n");
            new java.util.TreeMap<>(settings).forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
            return sb.toString();
        }

        @Override
        public boolean awaitRunning(Duration timeout) throws InterruptedException {
            return ChaosChildren.awaitRunning(http, httpPort, process, System.currentTimeMillis() + timeout.toMillis());
        }

        /** Its exit, with the end of its log (the log goes with the run's state directory). */
        @Override
        public String stopped() {
            Integer exit = process.exitCode();
            return exit == null ? null : process.name() + " exited with code " + exit + "; the end of its log:\n" + process.lastLines(30);
        }

        @Override
        public Duration ownCpu() {
            return ProcessHandle.of(process.pid()).flatMap(h -> h.info().totalCpuDuration()).orElse(Duration.ZERO);
        }

        @Override
        public JvmThreadsCpu ownThreads() {
            return JvmThreadsCpu.of(process.pid());
        }

        @Override
        public void close() {
            process.stop(Duration.ofSeconds(20));
            try {
                Runtime.getRuntime().removeShutdownHook(reaper);
            } catch (IllegalStateException e) {
                // this JVM is shutting down already: the hook runs, and the child is gone anyway
            }
        }

        @Override
        public String toString() {
            return process.name() + " (pid " + process.pid() + ", log " + process.log() + ")";
        }
    }
}
