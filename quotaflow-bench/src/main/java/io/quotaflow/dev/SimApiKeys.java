package io.quotaflow.dev;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/** The simulator's accepted keys: a comma-separated list (its environment variable) and a key file. Keys are never printed. */
final class SimApiKeys {

    private SimApiKeys() {
    }

    /**
     * The keys of {@code list} (may be null) and of {@code file} (may be null): one per line or
     * comma-separated, blank lines and lines starting with # ignored.
     *
     * @throws IllegalArgumentException for an unreadable file or one holding no key (never naming it:
     *                                  a user may have pasted a key there)
     */
    static Set<String> accepted(String list, Path file) {
        Set<String> keys = new LinkedHashSet<>(split(list));
        if (file == null) {
            return keys;
        }
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (!line.strip().startsWith("#")) {
                    keys.addAll(split(line));
                }
            }
        } catch (IOException | UncheckedIOException e) {
            String why = e instanceof NoSuchFileException ? "no such file"
                    : e instanceof AccessDeniedException ? "not readable" : e.getClass().getSimpleName();
            throw new IllegalArgumentException("cannot read --api-key-file (" + why + "; its name is not shown)");
        }
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("--api-key-file holds no key");
        }
        return keys;
    }

    /** The non-blank, stripped entries of a comma-separated list (null: none). */
    static Set<String> split(String list) {
        Set<String> keys = new LinkedHashSet<>();
        if (list != null) {
            for (String key : list.split(",")) {
                if (!key.isBlank()) {
                    keys.add(key.strip());
                }
            }
        }
        return keys;
    }
}
