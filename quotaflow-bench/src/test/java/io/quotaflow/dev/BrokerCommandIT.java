package io.quotaflow.dev;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Runs {@code broker} in a child JVM, as a user would, and stops it with SIGTERM. */
class BrokerCommandIT {

    private static final Pattern READY = Pattern.compile(
            "Kafka broker ready at (localhost:\\d+) \\(KRaft, single node\\)\\. Press Ctrl\\+C to stop\\.");
    private static final String END = "<end of output>";

    /** Entry point of the child JVM: only the broker command, like {@code quotaflow broker}. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new BrokerCommand()).execute(args));
    }

    @Test
    void shouldServeUntilSigtermThenStopCleanlyWithExitCodeZero(@TempDir Path dir) throws Exception {
        Path stderr = dir.resolve("stderr.txt");
        Process process = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                BrokerCommandIT.class.getName(), "--port", "0", "--dir", dir.resolve("data").toString())
                .redirectError(stderr.toFile())
                .start();
        BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    stdout.add(line);
                }
            } catch (IOException e) {
                stdout.add("<" + e + ">");
            }
            stdout.add(END);
        }, "broker-stdout");
        reader.setDaemon(true);
        reader.start();
        try {
            String first = stdout.poll(60, TimeUnit.SECONDS);
            Matcher ready = READY.matcher(String.valueOf(first));
            assertThat(ready.matches()).as("first line: %s, stderr: %s", first, Files.readString(stderr)).isTrue();

            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, ready.group(1)))) {
                assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(1);
            }

            process.toHandle().destroy(); // SIGTERM, keeping our end of the pipes open
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).isZero();
            List<String> rest = new ArrayList<>();
            for (String line = stdout.poll(10, TimeUnit.SECONDS); line != null && !line.equals(END);
                 line = stdout.poll(10, TimeUnit.SECONDS)) {
                rest.add(line);
            }
            assertThat(rest).containsExactly("Stopping the Kafka broker...", "Kafka broker stopped.");
        } finally {
            process.destroyForcibly();
        }
        assertThat(Files.readString(stderr)).as("stderr stays quiet").doesNotContain(" INFO ");
        assertThat(dir.resolve("data").resolve("meta.properties")).isRegularFile();
    }
}
