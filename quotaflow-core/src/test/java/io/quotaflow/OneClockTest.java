package io.quotaflow;

import io.quotaflow.testkit.RepositoryFiles;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Core reads time through Kafka's {@code Time} only ({@code Time.SYSTEM} in production, a manual
 * time in tests): no class in core's main sources reads the JVM's clock itself, and the one
 * {@code java.time.Clock} left is the view the circuit breaker's library takes. A source scan, not
 * ArchUnit, so method references ({@code System::nanoTime}) and {@code now()} calls count too.
 */
class OneClockTest {

    /** Reads of the JVM's clock: System's two, and every java.time {@code now()} without a clock. */
    private static final Pattern SYSTEM_TIME = Pattern.compile(
            "System\\s*(\\.|::)\\s*(currentTimeMillis|nanoTime)\\b"
                    + "|\\b(Instant|LocalDate|LocalDateTime|LocalTime|OffsetDateTime|ZonedDateTime|Year|YearMonth)\\s*\\.\\s*now\\s*\\(\\s*\\)"
                    + "|\\bClock\\s*\\.\\s*(systemUTC|systemDefaultZone|system)\\s*\\("
                    + "|\\bnew\\s+(java\\.util\\.)?Date\\s*\\(\\s*\\)");

    /** Files allowed to read the JVM's clock directly (none: Kafka's SystemTime is the adapter). */
    private static final Set<String> ALLOWED_SYSTEM_TIME = Set.of();

    /** The java.time.Clock views core keeps, and why. */
    private static final Map<String, String> ALLOWED_JAVA_CLOCK = Map.of(
            "io/quotaflow/failure/ScopeHealth.java", "resilience4j's CircuitBreakerConfig takes a java.time.Clock");

    private static final Pattern JAVA_CLOCK = Pattern.compile("\\bjava\\.time\\.Clock\\b|\\bextends\\s+Clock\\b");

    @Test
    void shouldReadNoSystemTimeInCoreOutsideKafkasTime() {
        assertThat(offenders(SYSTEM_TIME, ALLOWED_SYSTEM_TIME))
                .as("core reads time through org.apache.kafka.common.utils.Time (Time.SYSTEM in production)").isEmpty();
    }

    @Test
    void shouldKeepJavaTimeClockOnlyWhereALibraryTakesIt() {
        assertThat(offenders(JAVA_CLOCK, ALLOWED_JAVA_CLOCK.keySet()))
                .as("a java.time.Clock only as a view of the task's time for a library that takes one").isEmpty();
    }

    @Test
    void shouldFindAClockReadInCodeAndNotInAComment() {
        assertThat(reads("        long t = System.nanoTime();")).isTrue();
        assertThat(reads("        LongSupplier c = System::currentTimeMillis;")).isTrue();
        assertThat(reads("        Instant at = Instant.now();")).isTrue();
        assertThat(reads("        new RouteCheck(route, call, java.time.Clock.systemUTC());")).isTrue();
        assertThat(reads("        Instant at = Instant.now(clock);")).as("a clock passed in").isFalse();
        assertThat(reads("     * {@link #system()} is {@code System::nanoTime}")).as("javadoc").isFalse();
        assertThat(reads("        // System.currentTimeMillis() would credit refill")).as("a comment").isFalse();
    }

    private static boolean reads(String line) {
        return !comment(line) && SYSTEM_TIME.matcher(line).find();
    }

    private static boolean comment(String line) {
        String s = line.strip();
        return s.startsWith("*") || s.startsWith("//") || s.startsWith("/*");
    }

    private static List<String> offenders(Pattern pattern, Set<String> allowed) {
        Path main = RepositoryFiles.path("quotaflow-core/src/main/java");
        assertThat(main.resolve("io/quotaflow/Pipeline.java")).as("the scan reads core's sources").exists();
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(main)) {
            files.filter(f -> f.toString().endsWith(".java")).sorted().forEach(f -> {
                String relative = main.relativize(f).toString().replace('\\', '/');
                if (allowed.contains(relative)) {
                    return;
                }
                List<String> lines = lines(f);
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i);
                    if (!comment(line) && pattern.matcher(line).find()) {
                        found.add(relative + ":" + (i + 1) + ": " + line.strip());
                    }
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
