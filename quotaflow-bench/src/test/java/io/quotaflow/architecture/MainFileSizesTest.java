package io.quotaflow.architecture;

import io.quotaflow.testkit.RepositoryFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every module's main sources stay readable (docs/design.md, "Package layout"): no file under any
 * {@code quotaflow-*}{@code /src/main/java} holds more than {@value #MAX_LINES} lines, the bar core's
 * {@code SizeLimitsTest} sets for core. A file over it is split by concept (a runner's loop apart from
 * its report, a command's option groups as mixins).
 */
class MainFileSizesTest {

    /** Core's bar ({@link SizeLimitsTest#MAX_LINES}), held for every module. */
    static final int MAX_LINES = SizeLimitsTest.MAX_LINES;

    /** The modules with production sources: a new module with a {@code src/main/java} is scanned without being listed. */
    private static final String[] MODULES = {"quotaflow-bench", "quotaflow-cli", "quotaflow-core", "quotaflow-records",
        "quotaflow-simulator", "quotaflow-testkit", "quotaflow-tokens"};

    @Test
    void shouldKeepEveryMainSourceFileOfEveryModuleWithinTheLineLimit() {
        Scan scan = scan(RepositoryFiles.root(), MAX_LINES);

        assertThat(scan.filesByModule()).as("the scan reads every module's main sources").containsKeys(MODULES)
                .allSatisfy((module, files) -> assertThat(files).as(module + "'s main sources").isPositive());
        assertThat(scan.tooLong()).as("main sources over " + MAX_LINES + " lines (split them by concept)").isEmpty();
    }

    @Test
    void shouldFindAFileOneLineOverTheLimitInAnyModule(@TempDir Path root) throws IOException {
        Path core = Files.createDirectories(root.resolve("quotaflow-core/src/main/java/io/quotaflow"));
        Path other = Files.createDirectories(root.resolve("quotaflow-other/src/main/java/io/quotaflow/other"));
        Path tests = Files.createDirectories(root.resolve("quotaflow-other/src/test/java/io/quotaflow/other"));
        Files.writeString(core.resolve("Fits.java"), "//\n".repeat(MAX_LINES), StandardCharsets.UTF_8);
        Files.writeString(other.resolve("Long.java"), "//\n".repeat(MAX_LINES + 1), StandardCharsets.UTF_8);
        Files.writeString(tests.resolve("LongTest.java"), "//\n".repeat(MAX_LINES + 1), StandardCharsets.UTF_8);
        Files.createDirectories(root.resolve("notquotaflow/src/main/java"));
        Files.writeString(root.resolve("notquotaflow/src/main/java/Long.java"), "//\n".repeat(MAX_LINES + 1), StandardCharsets.UTF_8);

        Scan scan = scan(root, MAX_LINES);

        assertThat(scan.tooLong()).containsOnlyKeys("quotaflow-other/src/main/java/io/quotaflow/other/Long.java")
                .containsEntry("quotaflow-other/src/main/java/io/quotaflow/other/Long.java", MAX_LINES + 1);
        assertThat(scan.filesByModule()).containsOnlyKeys("quotaflow-core", "quotaflow-other")
                .containsEntry("quotaflow-core", 1).containsEntry("quotaflow-other", 1);
    }

    /**
     * What a scan of {@code root}'s modules found: the main source files read per module, and each one over
     * {@code max} lines (by its path from {@code root}) with its count.
     */
    record Scan(Map<String, Integer> filesByModule, Map<String, Integer> tooLong) {
    }

    static Scan scan(Path root, int max) {
        Map<String, Integer> files = new TreeMap<>();
        Map<String, Integer> tooLong = new TreeMap<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.filter(d -> d.getFileName().toString().startsWith("quotaflow-")).toList()) {
                Path main = module.resolve("src/main/java");
                if (!Files.isDirectory(main)) {
                    continue;
                }
                try (Stream<Path> sources = Files.walk(main)) {
                    files.put(module.getFileName().toString(), (int) sources.filter(p -> p.toString().endsWith(".java")).count());
                }
                // core's scanner, over this module's sources
                SizeLimitsTest.longFiles(main, max).forEach((relative, lines) ->
                        tooLong.put(root.relativize(main.resolve(relative)).toString().replace('\\', '/'), lines));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Scan(files, tooLong);
    }
}
