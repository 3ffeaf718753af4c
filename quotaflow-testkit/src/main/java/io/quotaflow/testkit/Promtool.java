package io.quotaflow.testkit;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Prometheus's {@code promtool}, when it is on the PATH ({@code .ci/run} installs the Debian package
 * {@code prometheus}); tests that need it are skipped, with a reason, where it is not.
 */
public final class Promtool {

    /** What promtool printed and its exit code. */
    public record Result(int exitCode, String output) {

        /** The lint problems promtool reported (one per line), for metric names starting with {@code prefix}. */
        public List<String> problems(String prefix) {
            return output.lines().filter(l -> l.startsWith(prefix)).toList();
        }
    }

    private Promtool() {
    }

    /** Skips the calling test unless promtool runs. */
    public static void assumeInstalled() {
        assumeTrue(installed(), "promtool is not on the PATH (apt-get install prometheus); lint skipped");
    }

    public static boolean installed() {
        try {
            return run(null, "promtool", "--version").exitCode() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** {@code promtool check metrics} on an exposition text (lint problems come out one per line). */
    public static Result checkMetrics(String exposition) throws IOException {
        return run(exposition, "promtool", "check", "metrics");
    }

    /** {@code promtool check rules FILE}. */
    public static Result checkRules(Path rules) throws IOException {
        return run(null, "promtool", "check", "rules", rules.toString());
    }

    /** {@code promtool test rules FILE}: the rules' own unit tests. */
    public static Result testRules(Path tests) throws IOException {
        return run(null, "promtool", "test", "rules", tests.toString());
    }

    private static Result run(String stdin, String... command) throws IOException {
        Path out = Files.createTempFile("promtool", ".out");
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            try (OutputStream in = p.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("promtool did not finish in 60 s");
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
