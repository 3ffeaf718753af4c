package io.quotaflow.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Temporary directories for tests (state directories, above all) that are gone when the test JVM
 * exits: a test's pipeline may still hold its files until it is closed, so they are removed at exit
 * rather than after each test, and quietly (what cannot be removed stays, as a plain temporary
 * directory would).
 */
public final class TestDirs {

    private static final Set<Path> CREATED = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> CREATED.forEach(TestDirs::deleteQuietly), "quotaflow-test-dirs"));
    }

    private TestDirs() {
    }

    /** A new directory under the system's temporary directory, named {@code prefix} and a random suffix. */
    public static Path temporary(String prefix) throws IOException {
        Path dir = Files.createTempDirectory(prefix);
        CREATED.add(dir);
        return dir;
    }

    static void deleteQuietly(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // left behind, as a plain temporary directory would be
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // left behind
        }
    }
}
