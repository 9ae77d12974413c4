//! Export over OTLP (feature `otlp`): the SDK's tracer and meter providers with the OTLP
//! exporter over HTTP/protobuf, configured by the standard `OTEL_*` environment variables.

use std::fmt;

use opentelemetry::propagation::TextMapCompositePropagator;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::WithExportConfig;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::SdkMeterProvider;
use opentelemetry_sdk::propagation::{BaggagePropagator, TraceContextPropagator};
use opentelemetry_sdk::trace::{SdkTracerProvider, Tracer};
use tracing_opentelemetry::OpenTelemetryLayer;
use tracing_subscriber::registry::LookupSpan;

/// The variables that name an endpoint: without any of them, [`Otlp::from_env`] exports
/// nothing.
const ENDPOINTS: [&str; 3] = [
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
];

/// Traces and metrics exported over OTLP: the tracer provider behind [`Otlp::layer`], the
/// meter provider the server's histograms go to. Dropping it flushes and shuts both down.
///
/// ```no_run
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use tracing_subscriber::layer::SubscriberExt;
/// use tracing_subscriber::util::SubscriberInitExt;
///
/// // `None` unless OTEL_EXPORTER_OTLP_ENDPOINT (or a signal's own endpoint) is set.
/// let otlp = toolidl_runtime::telemetry::Otlp::from_env("weather")?;
/// tracing_subscriber::registry()
///     .with(otlp.as_ref().map(|o| o.layer()))
///     .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
///     .init();
/// // … serve; keep `otlp` alive until the server returns.
/// # Ok(()) }
/// ```
pub struct Otlp {
    tracer: SdkTracerProvider,
    meter: SdkMeterProvider,
}

/// The OTLP exporter could not be set up from its configuration.
#[derive(Debug)]
pub struct OtlpError(String);

impl fmt::Display for OtlpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OpenTelemetry export: {}", self.0)
    }
}

impl std::error::Error for OtlpError {}

/// Settings of an [`Otlp`] beyond the environment's ([`Otlp::builder`]).
#[derive(Debug, Default, Clone)]
pub struct OtlpBuilder {
    endpoint: Option<String>,
    service: Option<String>,
}

impl OtlpBuilder {
    /// The collector's base URL (`http://host:4318`): traces go to `/v1/traces`, metrics to
    /// `/v1/metrics`. Default: `OTEL_EXPORTER_OTLP_ENDPOINT` and the signals' own variables,
    /// else `http://localhost:4318`.
    pub fn endpoint(mut self, url: impl Into<String>) -> Self {
        self.endpoint = Some(url.into());
        self
    }

    /// `service.name` when neither `OTEL_SERVICE_NAME` nor `OTEL_RESOURCE_ATTRIBUTES` names
    /// one.
    pub fn service_name(mut self, name: impl Into<String>) -> Self {
        self.service = Some(name.into());
        self
    }

    /// The providers, exporting in the background (batches of spans, metrics every
    /// `OTEL_METRIC_EXPORT_INTERVAL`, 60 s by default), sampled by `OTEL_TRACES_SAMPLER`.
    /// Nothing is installed globally: see [`Otlp::install_global`].
    pub fn build(self) -> Result<Otlp, OtlpError> {
        for var in [
            "OTEL_EXPORTER_OTLP_PROTOCOL",
            "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
            "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL",
        ] {
            if let Ok(protocol) = std::env::var(var)
                && protocol != "http/protobuf"
            {
                return Err(OtlpError(format!(
                    "{var}={protocol}: only http/protobuf is compiled in"
                )));
            }
        }
        let mut resource = Resource::builder();
        let named = std::env::var_os("OTEL_SERVICE_NAME").is_some()
            || std::env::var("OTEL_RESOURCE_ATTRIBUTES").is_ok_and(|a| {
                a.split(',')
                    .any(|kv| kv.trim().starts_with("service.name="))
            });
        if let (false, Some(service)) = (named, self.service) {
            resource = resource.with_service_name(service);
        }
        let resource = resource.build();
        let mut spans = opentelemetry_otlp::SpanExporter::builder().with_http();
        let mut metrics = opentelemetry_otlp::MetricExporter::builder().with_http();
        if let Some(base) = &self.endpoint {
            let base = base.trim_end_matches('/');
            spans = spans.with_endpoint(format!("{base}/v1/traces"));
            metrics = metrics.with_endpoint(format!("{base}/v1/metrics"));
        }
        let spans = spans.build().map_err(|e| OtlpError(e.to_string()))?;
        let metrics = metrics.build().map_err(|e| OtlpError(e.to_string()))?;
        Ok(Otlp {
            tracer: SdkTracerProvider::builder()
                .with_batch_exporter(spans)
                .with_resource(resource.clone())
                .build(),
            meter: SdkMeterProvider::builder()
                .with_periodic_exporter(metrics)
                .with_resource(resource)
                .build(),
        })
    }
}

impl Otlp {
    /// Settings beyond the environment's.
    pub fn builder() -> OtlpBuilder {
        OtlpBuilder::default()
    }

    /// The exporter the `OTEL_*` environment variables describe, installed as the global
    /// tracer and meter providers with the W3C Trace Context and Baggage propagators;
    /// `None` when no OTLP endpoint variable is set or `OTEL_SDK_DISABLED=true`.
    /// `service`: `service.name` unless the environment names one.
    pub fn from_env(service: &str) -> Result<Option<Otlp>, OtlpError> {
        let disabled =
            std::env::var("OTEL_SDK_DISABLED").is_ok_and(|v| v.eq_ignore_ascii_case("true"));
        if disabled || !ENDPOINTS.iter().any(|v| std::env::var_os(v).is_some()) {
            return Ok(None);
        }
        let otlp = Otlp::builder().service_name(service).build()?;
        otlp.install_global();
        Ok(Some(otlp))
    }

    /// Installs the providers as `opentelemetry::global`'s, and the W3C Trace Context and
    /// Baggage propagators that read `_meta` and the HTTP headers.
    pub fn install_global(&self) {
        opentelemetry::global::set_tracer_provider(self.tracer.clone());
        opentelemetry::global::set_meter_provider(self.meter.clone());
        opentelemetry::global::set_text_map_propagator(TextMapCompositePropagator::new(vec![
            Box::new(TraceContextPropagator::new()),
            Box::new(BaggagePropagator::new()),
        ]));
    }

    /// The `tracing` layer that exports spans through this exporter: add it to the
    /// subscriber (without a global level filter below INFO for `toolidl_runtime`, whose
    /// request spans are at INFO).
    pub fn layer<S>(&self) -> OpenTelemetryLayer<S, Tracer>
    where
        S: tracing::Subscriber + for<'span> LookupSpan<'span>,
    {
        tracing_opentelemetry::layer().with_tracer(self.tracer.tracer("toolidl-runtime"))
    }

    /// The meter of this exporter's provider (for [`Telemetry::meter`](super::Telemetry::meter)
    /// when the provider is not the global one).
    pub fn meter(&self) -> opentelemetry::metrics::Meter {
        opentelemetry::metrics::MeterProvider::meter(&self.meter, "toolidl-runtime")
    }

    /// Exports what is buffered now.
    pub fn flush(&self) -> Result<(), OtlpError> {
        let spans = self.tracer.force_flush();
        let metrics = self.meter.force_flush();
        spans.and(metrics).map_err(|e| OtlpError(e.to_string()))
    }
}

impl Drop for Otlp {
    fn drop(&mut self) {
        if let Err(e) = self.tracer.shutdown() {
            tracing::debug!(error = %e, "the tracer provider did not shut down cleanly");
        }
        if let Err(e) = self.meter.shutdown() {
            tracing::debug!(error = %e, "the meter provider did not shut down cleanly");
        }
    }
}

impl fmt::Debug for Otlp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Otlp").finish_non_exhaustive()
    }
}
