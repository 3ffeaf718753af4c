package io.quotaflow.bench;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A {@code quotaflow} subcommand running in a child JVM (same java binary, same class path as this
 * one), its stdout and stderr going to one log file. {@link #kill()} is a real SIGKILL on Linux
 * ({@link Process#destroyForcibly()}), which is what the chaos scenario is about.
 */
final class ChildProcess {

    /**
     * The developer distribution's entry point ({@code io.quotaflow.dev}, which depends on this
     * package, hence a name): every production command ({@code run}) and {@code broker}, which the
     * production entry point ({@code io.quotaflow.cli.QuotaflowCommand}) does not carry.
     */
    static final String MAIN_CLASS = "io.quotaflow.dev.QuotaflowDevCommand";

    private final String name;
    private final Process process;
    private final Path log;
    private final long startedAtMs;
    private long logPosition;
    private final StringBuilder logTail = new StringBuilder();

    private ChildProcess(String name, Process process, Path log, long startedAtMs) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.startedAtMs = startedAtMs;
    }

    /** The java binary running this JVM ({@code java.home}'s when the process info does not tell). */
    static String javaBinary() {
        return ProcessHandle.current().info().command()
                .filter(c -> Paths.get(c).getFileName().toString().startsWith("java"))
                .orElse(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** This JVM's class path with every entry made absolute (the child may resolve paths elsewhere). */
    static String classPath() {
        String cp = System.getProperty("java.class.path", "");
        List<String> out = new ArrayList<>();
        for (String entry : cp.split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                out.add(Paths.get(entry).toAbsolutePath().normalize().toString());
            }
        }
        return String.join(File.pathSeparator, out);
    }

    /** {@code java JVM_ARGS -cp CP io.quotaflow.cli.QuotaflowCommand ARGS}. */
    static List<String> command(List<String> jvmArgs, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaBinary());
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(classPath());
        cmd.add(MAIN_CLASS);
        cmd.addAll(args);
        return cmd;
    }

    /** Spawns {@code command} with {@code env} added to this process's environment, output to {@code log} (created or truncated). */
    static ChildProcess start(String name, List<String> command, Map<String, String> env, Path log) {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        pb.redirectErrorStream(true);
        pb.redirectOutput(log.toFile());
        try {
            Files.createDirectories(log.getParent());
            long started = System.currentTimeMillis();
            return new ChildProcess(name, pb.start(), log, started);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + e.getMessage(), e);
        }
    }

    String name() {
        return name;
    }

    Path log() {
        return log;
    }

    long pid() {
        return process.pid();
    }

    long startedAtMs() {
        return startedAtMs;
    }

    boolean alive() {
        return process.isAlive();
    }

    /** The exit code, or null while it runs. */
    Integer exitCode() {
        return process.isAlive() ? null : process.exitValue();
    }

    /** SIGKILL, then waits (up to 30 s) until the process is gone. */
    void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException(name + " (pid " + pid() + ") survived SIGKILL for 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing " + name, e);
        }
    }

    /** SIGTERM, then SIGKILL after {@code grace}; quiet. */
    void stop(Duration grace) {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** SIGKILL without waiting (shutdown hook). */
    void destroyNow() {
        process.destroyForcibly();
    }

    /**
     * Whether the log holds {@code needle}. Reads only what was appended since the last call (keeping
     * a short tail so that a needle split across two reads is still found).
     */
    boolean logContains(String needle) {
        Objects.requireNonNull(needle, "needle");
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
            long length = f.length();
            if (length > logPosition) {
                f.seek(logPosition);
                byte[] bytes = new byte[(int) Math.min(length - logPosition, 4 << 20)];
                f.readFully(bytes);
                logPosition += bytes.length;
                logTail.append(new String(bytes, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            return false;
        }
        boolean found = logTail.indexOf(needle) >= 0;
        if (logTail.length() > 8_192) {
            logTail.delete(0, logTail.length() - 1_024);
        }
        return found;
    }

    /** The last {@code lines} lines of the log, for an error message. */
    String lastLines(int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join(System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(cannot read " + log + ": " + e.getMessage() + ")";
        }
    }
}
