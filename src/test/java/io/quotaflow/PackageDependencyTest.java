package io.quotaflow;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No two packages of the main code use each other (docs/design.md, Package layout); the same
 * check as {@code dev/package-pairs.py}. Code only counts: imports and fully qualified names,
 * not comments, javadoc or string literals.
 */
class PackageDependencyTest {

    private static final Path MAIN = Path.of("src/main/java");
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern NOT_CODE = Pattern.compile("/\\*.*?\\*/|//[^\\n]*|\"(?:[^\"\\\\\\n]|\\\\.)*\"", Pattern.DOTALL);
    private static final Pattern REFERENCE = Pattern.compile("\\bio\\.quotaflow((?:\\.[a-z][a-z0-9_]*)*)\\.[A-Z]");

    @Test
    void shouldHaveNoTwoPackagesThatUseEachOther() {
        Map<String, Set<String>> uses = uses(MAIN);
        assertThat(uses).as("packages found").containsKeys("io.quotaflow.local.sim", "io.quotaflow.bench", "io.quotaflow.cli");

        assertThat(twoWayPairs(uses)).isEmpty();
    }

    @Test
    void shouldSeeAPairWhenTwoPackagesUseEachOther() {
        Map<String, Set<String>> uses = Map.of("io.quotaflow.a", Set.of("io.quotaflow.b"), "io.quotaflow.b", Set.of("io.quotaflow.a"),
                "io.quotaflow.c", Set.of("io.quotaflow.a"));

        assertThat(twoWayPairs(uses)).containsExactly("io.quotaflow.a <-> io.quotaflow.b");
    }

    @Test
    void shouldCountImportsAndQualifiedNamesButNotCommentsOrStrings() {
        String source = "package io.quotaflow.a;\n\nimport io.quotaflow.b.B;\n/** {@link io.quotaflow.c.C} */\n"
                + "class A { String s = \"io.quotaflow.d.D\"; Object o = io.quotaflow.e.E.of(); } // io.quotaflow.f.F\n";

        assertThat(usedBy(source)).containsExactlyInAnyOrder("io.quotaflow.b", "io.quotaflow.e");
    }

    private static Map<String, Set<String>> uses(Path root) {
        Map<String, Set<String>> uses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root.resolve("io/quotaflow"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file, StandardCharsets.UTF_8);
                Matcher pkg = PACKAGE.matcher(source);
                assertThat(pkg.find()).as("package of %s", file).isTrue();
                uses.computeIfAbsent(pkg.group(1), k -> new TreeSet<>()).addAll(usedBy(source));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return uses;
    }

    /** The other io.quotaflow packages one source file uses. */
    private static Set<String> usedBy(String source) {
        Matcher pkg = PACKAGE.matcher(source);
        String own = pkg.find() ? pkg.group(1) : "";
        Set<String> used = new TreeSet<>();
        Matcher m = REFERENCE.matcher(NOT_CODE.matcher(source).replaceAll(""));
        while (m.find()) {
            String target = "io.quotaflow" + m.group(1);
            if (!target.equals(own)) {
                used.add(target);
            }
        }
        return used;
    }

    private static List<String> twoWayPairs(Map<String, Set<String>> uses) {
        Set<String> pairs = new TreeSet<>();
        uses.forEach((a, targets) -> targets.forEach(b -> {
            if (uses.getOrDefault(b, Set.of()).contains(a)) {
                pairs.add(a.compareTo(b) < 0 ? a + " <-> " + b : b + " <-> " + a);
            }
        }));
        return new ArrayList<>(pairs);
    }
}
