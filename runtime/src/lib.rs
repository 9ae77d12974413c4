//! Skeleton: see the open issues.
