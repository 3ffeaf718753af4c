package io.quotaflow.config;

import io.quotaflow.settings.Origin;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Reads a {@code --config} properties file (UTF-8) into {@link Setting}s that remember their line,
 * so an error can say {@code q.properties line 3}. Values are parsed by {@link Properties} itself;
 * the line of each key is found by scanning the logical lines.
 */
final class PropertiesFile {

    private PropertiesFile() {
    }

    /** The file's settings, in line order; a missing or unreadable file is a {@link ConfigError}. */
    static List<Setting> read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ConfigError("config file not found: " + file.toAbsolutePath() + " (--config)");
        } catch (MalformedInputException e) {
            throw new ConfigError("config file " + file + " is not UTF-8 text (--config)");
        } catch (IOException e) {
            throw new ConfigError("cannot read config file " + file + " (--config): "
                    + (Files.isDirectory(file) ? "it is a directory" : e.getClass().getSimpleName()));
        }
        Properties p = new Properties();
        try {
            p.load(new StringReader(text));
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigError("config file " + file + " is not a properties file: " + e.getMessage());
        }
        Map<String, Integer> lines = keyLines(text);
        List<Setting> out = new ArrayList<>();
        for (String key : p.stringPropertyNames()) {
            out.add(new Setting(key.strip(), p.getProperty(key).strip(), Origin.file(file, lines.getOrDefault(key, 0))));
        }
        out.sort(Comparator.comparingInt(s -> lines.getOrDefault(s.key(), 0)));
        return out;
    }

    /** The (last) line number of each key, as {@link Properties} reads keys. */
    static Map<String, Integer> keyLines(String text) {
        Map<String, Integer> lines = new HashMap<>();
        String[] physical = text.split("\r\n|\r|\n", -1);
        boolean continued = false;
        for (int i = 0; i < physical.length; i++) {
            String line = physical[i];
            boolean startsLogical = !continued;
            continued = endsWithOddBackslashes(line) && (startsLogical ? !isComment(line) : true);
            if (!startsLogical || isComment(line)) {
                continue;
            }
            String key = keyOf(line.stripLeading());
            if (!key.isEmpty()) {
                lines.put(key, i + 1);
            }
        }
        return lines;
    }

    private static boolean isComment(String line) {
        String s = line.stripLeading();
        return s.isEmpty() || s.startsWith("#") || s.startsWith("!");
    }

    private static boolean endsWithOddBackslashes(String line) {
        int n = 0;
        for (int i = line.length() - 1; i >= 0 && line.charAt(i) == '\\'; i--) {
            n++;
        }
        return n % 2 == 1;
    }

    /** The key of a logical line, unescaped the way {@link Properties} does for keys. */
    private static String keyOf(String line) {
        Properties one = new Properties();
        try {
            one.load(new StringReader(line.endsWith("\\") ? line.substring(0, line.length() - 1) : line));
        } catch (IOException | IllegalArgumentException e) {
            return "";
        }
        return one.stringPropertyNames().stream().findFirst().orElse("");
    }
}
