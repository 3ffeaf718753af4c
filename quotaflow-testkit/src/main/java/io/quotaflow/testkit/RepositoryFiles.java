package io.quotaflow.testkit;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Files at the repository's root (README, docs, topics, ops, deployment files) for the tests that
 * check them, whichever module's directory the test runs in: the build passes the root as the
 * system property {@code quotaflow.root}; without it, the nearest parent holding {@code topics/}
 * and a {@code pom.xml}.
 */
public final class RepositoryFiles {

    private RepositoryFiles() {
    }

    /** The repository's root directory. */
    public static Path root() {
        String configured = System.getProperty("quotaflow.root");
        if (configured != null && !configured.isBlank() && !configured.contains("${")) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("topics")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("cannot find the repository root above " + Path.of("").toAbsolutePath());
    }

    /** {@code relative} resolved against the repository's root. */
    public static Path path(String relative) {
        return root().resolve(relative);
    }
}
