package io.quotaflow.artifact;

import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.testkit.KafkaBrokerExtension;
import io.quotaflow.testkit.RepositoryFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code run} of the production jar in a JVM of its own, stopped with SIGTERM as Kubernetes and
 * systemd stop it: exit 0 within 75 s (the JVM's own answer to a signal is 143), and its log ends with
 * a line saying it stopped and how long the close took.
 */
@ExtendWith(KafkaBrokerExtension.class)
class CleanStopIT {

    private static final String API_KEY = "sk-it-clean-stop";

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldExitZeroAndSayItStoppedOnSigterm() throws Exception {
        String prefix = KafkaBrokerExtension.uniqueName("stop") + ".";
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of(System.getProperty("project.build.directory", "target"),
                "clean-stop")), "run");
        Path stderr = dir.resolve("stderr.log");
        assertThat(io.quotaflow.cli.QuotaflowCommand.execute(new PrintWriter(Writer.nullWriter()), new PrintWriter(Writer.nullWriter()),
                Map.of("QUOTAFLOW_BOOTSTRAP_SERVERS", KafkaBrokerExtension.bootstrapServers(), "QUOTAFLOW_TOPICS_PREFIX", prefix),
                List.of(), "topics", "apply")).isZero();
        try (ProviderSimulator sim = ProviderSimulator.start(SimulatorConfig.builder().port(0).rpm(600).tpm(200_000)
                .apiKeys(Set.of(API_KEY)).build())) {
            Process run = start(dir, stderr, List.of("run", "--bootstrap-servers", KafkaBrokerExtension.bootstrapServers(),
                    "--topics-prefix", prefix, "--application-id", prefix + "app", "--state-dir", dir.resolve("state").toString(),
                    "--http-port", "0", "--http-bind", "127.0.0.1", "--llm-base-url", sim.baseUrl()));
            try {
                await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                    assertThat(run.isAlive()).as("the pipeline runs; its log:%n%s", read(stderr)).isTrue();
                    assertThat(read(stderr)).contains("quotaflow running: ");
                });
                // running: the streams have started (a SIGTERM during the start is a stop as well, but not this test's)
                Thread.sleep(3_000);
                long signalled = System.nanoTime();

                run.destroy(); // SIGTERM on Linux and macOS

                assertThat(run.waitFor(75, TimeUnit.SECONDS)).as("stopped within 75 s; log:%n%s", read(stderr)).isTrue();
                long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - signalled);
                List<String> lines = Files.readAllLines(stderr, StandardCharsets.UTF_8);
                System.out.printf("SIGTERM: exit %d after %d ms; last lines: %s%n", run.exitValue(), took,
                        lines.subList(Math.max(0, lines.size() - 2), lines.size()));
                assertThat(run.exitValue()).as("exit status after SIGTERM; log:%n%s", String.join("\n", lines)).isZero();
                assertThat(lines).hasSizeGreaterThanOrEqualTo(2);
                assertThat(lines.get(lines.size() - 2)).isEqualTo("quotaflow: stopping (committing and closing cleanly)...");
                assertThat(lines.get(lines.size() - 1)).matches("quotaflow: stopped \\(committed and closed in \\d+\\.\\d s\\)");
            } finally {
                run.destroyForcibly();
            }
        }
    }

    private static Process start(Path dir, Path stderr, List<String> args) throws IOException {
        Path tmp = Files.createDirectories(dir.resolve("jvm-tmp"));
        Path jar = RepositoryFiles.path("quotaflow-cli/target/quotaflow.jar");
        assertThat(jar).as("mvn package builds the production jar first").exists();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx512m", "-Djava.io.tmpdir=" + tmp, "-jar", jar.toString()));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(dir.resolve("stdout.log").toFile()).redirectError(stderr.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("QUOTAFLOW_"));
        pb.environment().put("QUOTAFLOW_LLM_API_KEY", API_KEY);
        return pb.start();
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }
}
