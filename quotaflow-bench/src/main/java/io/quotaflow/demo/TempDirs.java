package io.quotaflow.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The temporary directories the demos and benchmarks make for brokers and state. */
public final class TempDirs {

    private TempDirs() {
    }

    /** Removes {@code dir} and everything below it, ignoring what cannot be removed (or is not there). */
    public static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory: a missing one is already gone
        }
    }
}
