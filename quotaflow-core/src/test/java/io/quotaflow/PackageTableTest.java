package io.quotaflow;

import io.quotaflow.testkit.RepositoryFiles;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/design.md's package table ("Package layout") is drawn from the code: every package of every
 * module's main sources is named in its first column, and every name there is a package. Names are
 * relative to {@code io.quotaflow} ({@code io.quotaflow} itself is the root package); a name ending in
 * {@code .*} stands for that package and all its sub-packages, so splitting a package needs one row.
 */
class PackageTableTest {

    private static final String ROOT = "io.quotaflow";
    private static final Pattern NAME = Pattern.compile("`([^`]+)`");

    @Test
    void shouldNameEveryMainPackageOfEveryModuleAndNothingElse() throws IOException {
        Set<String> packages = mainPackages(RepositoryFiles.root());
        List<String> names = tableNames(Files.readString(RepositoryFiles.path("docs/design.md")));

        assertThat(packages).as("the modules' main packages were found").contains("io.quotaflow.dispatch", "io.quotaflow.records",
                "io.quotaflow.cli", "io.quotaflow.bench").hasSizeGreaterThan(25);
        assertThat(missing(packages, names)).as("packages missing from docs/design.md's \"Package layout\" table").isEmpty();
        assertThat(stale(packages, names)).as("names in docs/design.md's \"Package layout\" table that are no package").isEmpty();
    }

    @Test
    void shouldGiveEveryMainPackageOfEveryModuleAPackageInfo() throws IOException {
        Path root = RepositoryFiles.root();
        List<String> without = new ArrayList<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.filter(m -> m.getFileName().toString().startsWith("quotaflow-")).toList()) {
                Path sources = module.resolve("src/main/java");
                for (String pkg : mainPackages(root).stream().filter(p -> Files.isDirectory(sources.resolve(p.replace('.', '/')))).toList()) {
                    Path dir = sources.resolve(pkg.replace('.', '/'));
                    boolean holdsJava;
                    try (Stream<Path> files = Files.list(dir)) {
                        holdsJava = files.anyMatch(f -> f.toString().endsWith(".java"));
                    }
                    if (holdsJava && !Files.exists(dir.resolve("package-info.java"))) {
                        without.add(root.relativize(module) + ": " + pkg);
                    }
                }
            }
        }
        assertThat(without).as("main packages without a package-info.java saying what they hold").isEmpty();
    }

    @Test
    void shouldFindAMissingPackageAStaleNameAndAcceptSubPackagesOfAWildcard() {
        Set<String> packages = Set.of("io.quotaflow", "io.quotaflow.records", "io.quotaflow.dispatch.ledger",
                "io.quotaflow.dispatch.plan", "io.quotaflow.cache");
        List<String> names = tableNames("""
                intro
                ## Package layout

                | package | holds |
                |---|---|
                | `records` (own module) | the records, `Classification` |
                | `dispatch.*` | the dispatcher |
                | `status`, `io.quotaflow` | gone; the root |

                ## Next
                | `cache` | not in the section |
                """);

        assertThat(names).containsExactly("records", "dispatch.*", "status", "io.quotaflow");
        assertThat(missing(packages, names)).containsExactly("io.quotaflow.cache");
        assertThat(stale(packages, names)).containsExactly("status");
        assertThat(stale(Set.of("io.quotaflow.records"), List.of("dispatch.*"))).as("a wildcard over nothing").containsExactly("dispatch.*");
    }

    /** The packages of every {@code quotaflow-*} module's {@code src/main/java}: directories holding a Java file. */
    static Set<String> mainPackages(Path repository) throws IOException {
        Set<String> packages = new TreeSet<>();
        try (Stream<Path> modules = Files.list(repository)) {
            for (Path module : modules.filter(m -> m.getFileName().toString().startsWith("quotaflow-")).toList()) {
                Path sources = module.resolve("src/main/java");
                if (!Files.isDirectory(sources)) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(sources)) {
                    files.filter(f -> f.toString().endsWith(".java"))
                            .map(f -> sources.relativize(f.getParent()).toString().replace(f.getFileSystem().getSeparator(), "."))
                            .forEach(packages::add);
                }
            }
        }
        return packages;
    }

    /** The names in the first column of the "Package layout" table, parenthesised remarks left out. */
    static List<String> tableNames(String design) {
        int start = design.indexOf("\n## Package layout\n");
        assertThat(start).as("docs/design.md has a \"Package layout\" section").isNotNegative();
        int end = design.indexOf("\n## ", start + 1);
        String section = design.substring(start, end < 0 ? design.length() : end);
        List<String> names = new ArrayList<>();
        for (String line : section.lines().filter(l -> l.startsWith("| `")).toList()) {
            String first = line.split("\\|")[1].replaceAll("\\([^)]*\\)", "");
            Matcher m = NAME.matcher(first);
            while (m.find()) {
                names.add(m.group(1).strip());
            }
        }
        return names;
    }

    /** The packages no name covers. */
    static List<String> missing(Set<String> packages, List<String> names) {
        return packages.stream().filter(p -> names.stream().noneMatch(n -> covers(n, p))).sorted().toList();
    }

    /** The names that cover no package. */
    static List<String> stale(Set<String> packages, List<String> names) {
        return names.stream().filter(n -> packages.stream().noneMatch(p -> covers(n, p))).toList();
    }

    /** Whether table name {@code name} stands for package {@code pkg}. */
    static boolean covers(String name, String pkg) {
        if (name.endsWith(".*")) {
            String parent = qualified(name.substring(0, name.length() - 2));
            return pkg.equals(parent) || pkg.startsWith(parent + ".");
        }
        return pkg.equals(qualified(name));
    }

    private static String qualified(String name) {
        return name.equals(ROOT) ? ROOT : ROOT + "." + name;
    }
}
