package io.quotaflow.architecture;

import io.quotaflow.testkit.RepositoryFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Core's main sources stay readable (docs/design.md, "Package layout" and "Dispatcher"): no source file
 * holds more than {@value #MAX_LINES} lines and no class more than
 * {@value #MAX_FIELDS} instance fields (a record's components are its fields; static and synthetic
 * fields do not count). A class over the bar is split by concept or groups its fields into small
 * records or collaborators; an exception is listed here with its reason.
 */
class SizeLimitsTest {

    static final int MAX_LINES = 400;
    static final int MAX_FIELDS = 15;
    static final int MAX_PACKAGE_LINES = 2_000;

    /** Source files allowed over {@link #MAX_LINES}, and why (none). */
    private static final Map<String, String> LONG_FILES = Map.of();

    /** Classes allowed over {@link #MAX_FIELDS}, and why. */
    private static final Map<String, String> CROWDED_CLASSES = Map.of("io.quotaflow.dispatch.report.DispatcherSnapshot",
            "its components are the keys of a scope in the /status JSON; grouping them into sub-records would nest that contract");

    @Test
    void shouldKeepEveryCoreSourceFileWithinTheLineLimit() {
        Path main = RepositoryFiles.path("quotaflow-core/src/main/java");
        assertThat(main.resolve("io/quotaflow/Pipeline.java")).as("the scan reads core's sources").exists();

        Map<String, Integer> tooLong = longFiles(main, MAX_LINES);
        LONG_FILES.keySet().forEach(tooLong::remove);

        assertThat(tooLong).as("core main sources over " + MAX_LINES + " lines (split them by concept)").isEmpty();
    }

    @Test
    void shouldKeepEveryDispatchPackageWithinThePackageLimit() throws IOException {
        Path main = RepositoryFiles.path("quotaflow-core/src/main/java");
        Map<String, Integer> lines = new TreeMap<>();
        try (Stream<Path> files = Files.walk(main)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                lines.merge(main.relativize(f.getParent()).toString().replace(f.getFileSystem().getSeparator(), "."), lineCount(f),
                        Integer::sum);
            }
        }
        assertThat(lines).as("the scan reads dispatch's packages").containsKeys("io.quotaflow.dispatch", "io.quotaflow.dispatch.ledger");
        lines.keySet().removeIf(pkg -> !pkg.startsWith("io.quotaflow.dispatch"));
        lines.values().removeIf(n -> n <= MAX_PACKAGE_LINES);
        assertThat(lines).as("dispatch packages over " + MAX_PACKAGE_LINES + " lines (split them by concept)").isEmpty();
    }

    @Test
    void shouldKeepEveryCoreClassWithinTheFieldLimit() {
        List<Class<?>> classes = coreClasses();
        assertThat(classes).as("the scan loads core's classes, dispatch's too").contains(io.quotaflow.Pipeline.class,
                io.quotaflow.dispatch.DispatcherProcessor.class);

        Map<String, Integer> crowded = crowdedClasses(classes, MAX_FIELDS);
        CROWDED_CLASSES.keySet().forEach(crowded::remove);

        assertThat(crowded).as("core classes over " + MAX_FIELDS + " instance fields (group them into records or collaborators)")
                .isEmpty();
    }

    @Test
    void shouldKeepTheExceptionsListCurrent() {
        Path main = RepositoryFiles.path("quotaflow-core/src/main/java");
        Map<String, Integer> tooLong = longFiles(main, MAX_LINES);
        Map<String, Integer> crowded = crowdedClasses(coreClasses(), MAX_FIELDS);

        assertThat(tooLong.keySet()).as("every listed long file is still long").containsAll(LONG_FILES.keySet());
        assertThat(crowded.keySet()).as("every listed crowded class is still crowded").containsAll(CROWDED_CLASSES.keySet());
    }

    @Test
    void shouldFindAFileOneLineOverTheLimit(@TempDir Path root) throws IOException {
        Path dir = Files.createDirectories(root.resolve("io/quotaflow/quota"));
        Files.writeString(dir.resolve("Long.java"), "//\n".repeat(MAX_LINES + 1), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("Fits.java"), "//\n".repeat(MAX_LINES), StandardCharsets.UTF_8);

        assertThat(longFiles(root, MAX_LINES)).containsOnlyKeys("io/quotaflow/quota/Long.java")
                .containsEntry("io/quotaflow/quota/Long.java", MAX_LINES + 1);
    }

    @Test
    void shouldCountInstanceFieldsAndRecordComponentsButNotStaticOnes() {
        assertThat(instanceFields(Sixteen.class)).isEqualTo(16);
        assertThat(instanceFields(Fifteen.class)).isEqualTo(15);
        assertThat(instanceFields(SixteenComponents.class)).isEqualTo(16);

        assertThat(crowdedClasses(List.of(Sixteen.class, Fifteen.class, SixteenComponents.class), MAX_FIELDS))
                .containsOnlyKeys(Sixteen.class.getName(), SixteenComponents.class.getName());
    }

    /** Each {@code .java} file under {@code main} with more than {@code max} lines, with its count. */
    static Map<String, Integer> longFiles(Path main, int max) {
        Map<String, Integer> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(main)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> {
                String relative = main.relativize(f).toString().replace('\\', '/');
                int lines = lineCount(f);
                if (lines > max) {
                    out.put(relative, lines);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Each class with more than {@code max} instance fields, with its count. */
    static Map<String, Integer> crowdedClasses(List<Class<?>> classes, int max) {
        Map<String, Integer> out = new TreeMap<>();
        for (Class<?> c : classes) {
            int fields = instanceFields(c);
            if (fields > max) {
                out.put(c.getName(), fields);
            }
        }
        return out;
    }

    /** Declared fields that are neither static nor synthetic (an inner class's outer reference is synthetic). */
    static int instanceFields(Class<?> c) {
        return (int) Arrays.stream(c.getDeclaredFields())
                .filter(f -> !Modifier.isStatic(f.getModifiers()) && !f.isSynthetic()).count();
    }

    /** Core's compiled main classes, loaded without initialising them. */
    private static List<Class<?>> coreClasses() {
        Path classes = RepositoryFiles.path("quotaflow-core/target/classes");
        List<Class<?>> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String relative = classes.relativize(f).toString().replace('\\', '/');
                if (relative.endsWith("package-info.class") || relative.endsWith("module-info.class")) {
                    continue;
                }
                String name = relative.substring(0, relative.length() - ".class".length()).replace('/', '.');
                out.add(Class.forName(name, false, SizeLimitsTest.class.getClassLoader()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }

    private static int lineCount(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8).size();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unused")
    private static final class Fifteen {
        private static final int IGNORED = 0;
        private int f1;
        private int f2;
        private int f3;
        private int f4;
        private int f5;
        private int f6;
        private int f7;
        private int f8;
        private int f9;
        private int f10;
        private int f11;
        private int f12;
        private int f13;
        private int f14;
        private int f15;
    }

    @SuppressWarnings("unused")
    private static final class Sixteen {
        private int f1;
        private int f2;
        private int f3;
        private int f4;
        private int f5;
        private int f6;
        private int f7;
        private int f8;
        private int f9;
        private int f10;
        private int f11;
        private int f12;
        private int f13;
        private int f14;
        private int f15;
        private int f16;
    }

    private record SixteenComponents(int f1, int f2, int f3, int f4, int f5, int f6, int f7, int f8, int f9, int f10, int f11,
                                     int f12, int f13, int f14, int f15, int f16) {
    }
}
