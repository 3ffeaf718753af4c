package io.quotaflow.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dispatch stays readable by concept (docs/design.md, "Dispatcher"): no main source file of
 * {@code io.quotaflow.dispatch..} is over {@value #MAX_LINES} lines, and no class there holds more than
 * {@value #MAX_FIELDS} instance fields (a record: components).
 */
class DispatchSizeTest {

    static final int MAX_LINES = 400;
    static final int MAX_FIELDS = 15;
    /**
     * Classes whose field count is a wire contract: {@code DispatcherSnapshot}'s components are the /status JSON's
     * keys of a scope, which grouping into sub-records would nest.
     */
    static final Set<String> CONTRACTS = Set.of("io.quotaflow.dispatch.report.DispatcherSnapshot");

    private static final Path SOURCES = Path.of("src/main/java/io/quotaflow/dispatch");

    @Test
    void shouldKeepEveryDispatchSourceFileWithinTheLineLimit() throws IOException {
        Map<String, Long> over = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                long lines = lines(file);
                if (lines > MAX_LINES) {
                    over.put(SOURCES.relativize(file).toString(), lines);
                }
            }
        }
        assertThat(over).as("dispatch source files over %d lines", MAX_LINES).isEmpty();
    }

    @Test
    void shouldKeepEveryDispatchClassWithinTheFieldLimit() {
        JavaClasses dispatch = new ClassFileImporter().withImportOption(PackageCyclesTest.PRODUCTION_ONLY)
                .importPackages("io.quotaflow.dispatch");
        assertThat(dispatch.size()).as("the scan sees dispatch's classes").isGreaterThan(20);
        Map<String, Integer> over = new TreeMap<>();
        for (JavaClass c : dispatch) {
            int fields = instanceFields(c);
            if (fields > MAX_FIELDS && !CONTRACTS.contains(c.getName())) {
                over.put(c.getName(), fields);
            }
        }
        assertThat(over).as("dispatch classes over %d instance fields", MAX_FIELDS).isEmpty();
    }

    @Test
    void shouldCountOnlyInstanceFields() {
        JavaClass fixture = new ClassFileImporter().importClass(Fixture.class);
        assertThat(instanceFields(fixture)).isEqualTo(2);
    }

    static int instanceFields(JavaClass c) {
        return (int) c.getFields().stream()
                .filter(f -> !f.getModifiers().contains(JavaModifier.STATIC) && !f.getModifiers().contains(JavaModifier.SYNTHETIC))
                .count();
    }

    private static long lines(Path file) {
        try (Stream<String> s = Files.lines(file)) {
            return s.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unused")
    private static final class Fixture {
        private static final int CONSTANT = 1;
        private final int one = 1;
        private int two;
    }
}
