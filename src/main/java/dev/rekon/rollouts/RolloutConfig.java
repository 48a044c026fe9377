package dev.rekon.rollouts;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Where the rollout function finds kpack Images and ImageDeploys (kpush's {@code IMAGE_CRD_*} settings). */
@ConfigMapping(prefix = "rekon.rollouts")
public interface RolloutConfig {

    ImageCrd imageCrd();

    /** Also roll out kpush's {@code imagedeploys.crd.whizzosoftware.com/v1alpha1} objects. */
    @WithDefault("true")
    boolean kpushImageDeploys();

    /**
     * How often at most one ImageDeploy's status is written: its first report goes out at once, after the
     * event's reply; further ones within this interval become one write (the newest, and the newest rollout).
     */
    @WithDefault("500ms")
    Duration statusReportInterval();

    /** The kpack Image kind: group, version and plural. */
    interface ImageCrd {
        @WithDefault("kpack.io")
        String group();

        @WithDefault("v1alpha2")
        String version();

        @WithDefault("images")
        String plural();
    }
}
