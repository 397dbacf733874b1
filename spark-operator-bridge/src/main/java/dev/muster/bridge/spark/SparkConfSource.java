package dev.muster.bridge.spark;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.spark.SparkConf;

/** Spark's own conf, read with Spark's own parsing: what the feature step sees. */
final class SparkConfSource implements ConfSource {
    private final SparkConf conf;

    SparkConfSource(SparkConf conf) {
        this.conf = requireNonNull(conf, "conf is null");
    }

    @Override
    public Optional<String> get(String key) {
        return conf.contains(key) ? Optional.of(conf.get(key)) : Optional.empty();
    }

    @Override
    public Map<String, String> withPrefix(String prefix) {
        Map<String, String> settings = new TreeMap<>();
        for (scala.Tuple2<String, String> setting : conf.getAllWithPrefix(prefix)) {
            settings.put(setting._1(), setting._2());
        }
        return Collections.unmodifiableMap(settings);
    }

    @Override
    public long sizeInMib(String key) {
        return conf.getSizeAsMb(key);
    }
}
