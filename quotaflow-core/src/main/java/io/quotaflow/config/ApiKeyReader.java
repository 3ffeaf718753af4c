package io.quotaflow.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import io.quotaflow.settings.Secret;

/**
 * Reads the LLM API key: from the file named by {@code llm.api-key-file} when given, else from
 * {@code QUOTAFLOW_LLM_API_KEY}; a route's from its own file ({@code route.<name>.api-key-file}). Its
 * errors never name the file's path: a user may have pasted the key itself there.
 */
final class ApiKeyReader {

    private static final String KEY_FILE = "the API key file (--llm-api-key-file / llm.api-key-file)";
    private static final String NOT_SHOWN = " (its name is not shown: it may be the key itself)";

    private ApiKeyReader() {
    }

    static Secret read(String file, String envValue) {
        if (file != null && !file.isBlank()) {
            return fromFile(file, KEY_FILE);
        }
        if (envValue == null || envValue.isBlank()) {
            throw new ConfigError("the LLM API key is missing: set " + ConfigLoader.API_KEY_ENV + " or pass --llm-api-key-file");
        }
        return Secret.of(envValue);
    }

    /** The key in {@code file}; errors name the file by {@code description} ({@code route primary's API key file}), never by path. */
    static Secret fromFile(String file, String description) {
        return Secret.of(contents(file, description));
    }

    private static String contents(String file, String description) {
        Path path;
        try {
            path = Path.of(file.strip());
        } catch (InvalidPathException e) {
            throw new ConfigError(description + " is not a valid path" + NOT_SHOWN);
        }
        if (!Files.exists(path)) {
            throw new ConfigError(description + ": no such file" + NOT_SHOWN);
        }
        if (Files.isDirectory(path)) {
            throw new ConfigError(description + " is a directory, not a file" + NOT_SHOWN);
        }
        if (!Files.isReadable(path)) {
            throw new ConfigError(description + " is not readable" + NOT_SHOWN);
        }
        String value;
        try {
            value = Files.readString(path, StandardCharsets.UTF_8);
            // an editor's byte-order mark is no part of the key
            value = (value.startsWith("\uFEFF") ? value.substring(1) : value).strip();
        } catch (IOException e) {
            throw new ConfigError(description + " cannot be read (" + e.getClass().getSimpleName() + ")" + NOT_SHOWN);
        }
        if (value.isEmpty()) {
            throw new ConfigError(description + " is empty" + NOT_SHOWN);
        }
        return value;
    }
}
