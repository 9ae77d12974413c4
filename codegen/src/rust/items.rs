//! Records as structs and enums as Rust enums, each with its `Decode` impl.

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use toolidl::model::{Alias, Enum, Field, Record, Type, Union};

use super::context::{Context, constraint_text, doc_attrs, field_doc};
use crate::naming as names;

/// User attributes (`type_attribute`/`field_attribute`) whose path selects `target`:
/// `.`, or `target` itself, or a prefix of it that ends at a `.`.
pub fn attributes_for(rules: &[(String, String)], target: &str) -> TokenStream {
    let selected = rules.iter().filter(|(path, _)| {
        path == "."
            || path == target
            || target
                .strip_prefix(path.as_str())
                .is_some_and(|rest| rest.starts_with('.'))
    });
    // `RustOptions::validate` refused every attribute that does not parse before generation.
    let attrs = selected.map(|(_, attr)| attr.parse::<TokenStream>().unwrap_or_default());
    quote!(#(#attrs)*)
}

/// A field's `serde` attributes, so that it serializes as the schema names it: renamed to its
/// wire name, and left out when it is an optional field that is absent (never written as
/// `null`, which would mean something else to a nullable field or a decoder that refuses it).
pub fn serde_field_attrs(f: &Field) -> TokenStream {
    let rename = (names::value_name(&f.name) != f.json_name).then(|| {
        let wire = Literal::string(&f.json_name);
        quote!(#[serde(rename = #wire)])
    });
    let skip = f
        .is_optional()
        .then(|| quote!(#[serde(skip_serializing_if = "::core::option::Option::is_none")]));
    quote!(#rename #skip)
}

impl Context<'_> {
    pub fn record(&self, r: &Record) -> TokenStream {
        let ident = names::type_ident(&r.name);
        let docs = doc_attrs(&r.doc);
        let full = format!("{}.{}", r.package, r.name);
        let user = attributes_for(&self.options.type_attributes, &full);
        let derives = if self.facts.record_is_hashable(&r.package, &r.name) {
            quote!(#[derive(Debug, Clone, PartialEq, Eq, Hash, rt::serde::Serialize)])
        } else {
            quote!(#[derive(Debug, Clone, PartialEq, rt::serde::Serialize)])
        };
        let boxed = |name: &str| self.facts.is_boxed(&r.package, &r.name, name);
        let fields = r.fields.iter().map(|f| {
            let docs = doc_attrs(&field_doc(f));
            let name = names::value_ident(&f.name);
            let ty = self.field_type(f, boxed(&f.name));
            let serde = serde_field_attrs(f);
            let user = attributes_for(
                &self.options.field_attributes,
                &format!("{full}.{}", f.name),
            );
            quote! {
                #docs
                #serde
                #user
                pub #name: #ty,
            }
        });
        let body = self.fields_decoder(
            &r.fields,
            super::decode::Others::of_record(r),
            |f| boxed(&f.name),
            |finals| {
                let mut inits = super::decode::struct_inits(&r.fields, finals);
                inits.extend(r.open.then(|| quote!(extra)));
                quote!(#ident { #(#inits),* })
            },
        );
        let string = self.std("String");
        let extra = r.open.then(|| {
            quote! {
                /// The members not declared by the record (it is `@open`), as sent.
                #[serde(flatten)]
                pub extra: rt::serde_json::Map<#string, rt::serde_json::Value>,
            }
        });
        let result = self.std("Result");
        quote! {
            #docs
            #derives
            #[serde(crate = "rt::serde")]
            #user
            pub struct #ident {
                #(#fields)*
                #extra
            }

            impl rt::Decode for #ident {
                fn read(r: &mut rt::Reader<'_>, path: &rt::Path<'_>) -> #result<Self, rt::ArgError> {
                    #body
                }
            }
        }
    }

    /// `pub type PageSize = u8;`: a named type. Fields and parameters of it have its type
    /// (the alias is inlined in the model); the alias names it for the user's own code.
    pub fn alias(&self, a: &Alias) -> TokenStream {
        let ident = names::type_ident(&a.name);
        let mut lines = a.doc.clone();
        let constraints = constraint_text(&a.constraints);
        if !constraints.is_empty() {
            if !lines.is_empty() {
                lines.push(String::new());
            }
            lines.push(format!("Checked when decoded: {constraints}."));
        }
        let docs = doc_attrs(&lines);
        let ty = self.rust_type(&a.ty, false);
        quote! {
            #docs
            pub type #ident = #ty;
        }
    }

    /// A union as a Rust enum with one tuple variant per union variant: internally tagged
    /// (`#[serde(tag = "kind")]`) or untagged, with its `Decode` impl.
    pub fn union(&self, u: &Union) -> TokenStream {
        let ident = names::type_ident(&u.name);
        let docs = doc_attrs(&u.doc);
        let full = format!("{}.{}", u.package, u.name);
        let user = attributes_for(&self.options.type_attributes, &full);
        let variants: Vec<_> = u
            .variants
            .iter()
            .map(|v| names::type_ident(&v.name))
            .collect();
        let decls = u.variants.iter().zip(&variants).map(|(v, variant)| {
            let docs = doc_attrs(&v.doc);
            let ty = self.rust_type(&v.ty, false);
            let rename = (u.tag.is_some() && names::type_name(&v.name) != v.name).then(|| {
                let wire = Literal::string(&v.name);
                quote!(#[serde(rename = #wire)])
            });
            quote!(#docs #rename #variant(#ty),)
        });
        let serde = match &u.tag {
            Some(tag) => {
                let tag = Literal::string(tag);
                quote!(#[serde(crate = "rt::serde", tag = #tag)])
            }
            None => quote!(#[serde(crate = "rt::serde", untagged)]),
        };
        let result = self.std("Result");
        let body = match &u.tag {
            Some(tag) => self.tagged_decoder(u, tag, &variants),
            None => self.untagged_decoder(u, &variants),
        };
        quote! {
            #docs
            #[derive(Debug, Clone, PartialEq, rt::serde::Serialize)]
            #serde
            #user
            pub enum #ident {
                #(#decls)*
            }

            impl rt::Decode for #ident {
                fn read(r: &mut rt::Reader<'_>, path: &rt::Path<'_>) -> #result<Self, rt::ArgError> {
                    #body
                }
            }
        }
    }

    /// Reads the tag from a copy of the reader, then the variant's record with the tag
    /// passed over.
    fn tagged_decoder(&self, u: &Union, tag: &str, variants: &[proc_macro2::Ident]) -> TokenStream {
        let result = self.std("Result");
        let tags = u.variants.iter().map(|v| Literal::string(&v.name));
        let key = Literal::string(tag);
        let mut readers = Vec::new();
        let mut arms = Vec::new();
        for (i, (v, variant)) in u.variants.iter().zip(variants).enumerate() {
            let Type::Named { package, name, .. } = &v.ty else {
                continue;
            };
            let Some(record) = self.facts.record(package, name) else {
                continue;
            };
            let path_ty = self.type_path(package, name);
            let boxed = |f: &toolidl::model::Field| self.facts.is_boxed(package, name, &f.name);
            let body = self.fields_decoder_skipping(
                &record.fields,
                super::decode::Others::of_record(record),
                Some(tag),
                boxed,
                |finals| {
                    let mut inits = super::decode::struct_inits(&record.fields, finals);
                    inits.extend(record.open.then(|| quote!(extra)));
                    quote!(#path_ty { #(#inits),* })
                },
            );
            let reader = quote::format_ident!("variant_{}", i);
            readers.push(quote! {
                fn #reader(r: &mut rt::Reader<'_>, path: &rt::Path<'_>) -> #result<#path_ty, rt::ArgError> {
                    #body
                }
            });
            let index = Literal::usize_unsuffixed(i);
            arms.push(quote!(#index => #reader(r, path).map(Self::#variant),));
        }
        quote! {
            #(#readers)*
            match rt::args::tag(r, path, #key, &[#(#tags),*])? {
                #(#arms)*
                _ => Err(rt::ArgError::bare(path)),
            }
        }
    }

    /// Tries each variant on a copy of the reader; the first that fits is the value.
    fn untagged_decoder(&self, u: &Union, variants: &[proc_macro2::Ident]) -> TokenStream {
        let attempts = u.variants.iter().zip(variants).map(|(v, variant)| {
            // A value of the variant's type that breaks its constraints does not fit it.
            let decode = self.checked_decode(
                &v.ty,
                &v.constraints,
                false,
                &quote!(&mut attempt),
                &quote!(path),
                &quote!(attempt.last_number()),
            );
            let name = Literal::string(&v.name);
            quote! {
                let mut attempt = r.clone();
                match #decode {
                    Ok(value) => {
                        *r = attempt;
                        return Ok(Self::#variant(value));
                    }
                    Err(e) => failures.push((#name, e)),
                }
            }
        });
        let vec = self.std("Vec");
        quote! {
            let mut failures: #vec<(&str, rt::ArgError)> = #vec::new();
            #(#attempts)*
            Err(rt::args::no_variant(path, &failures))
        }
    }

    pub fn enumeration(&self, e: &Enum) -> TokenStream {
        let ident = names::type_ident(&e.name);
        let docs = doc_attrs(&e.doc);
        let full = format!("{}.{}", e.package, e.name);
        let user = attributes_for(&self.options.type_attributes, &full);
        let variants: Vec<_> = e
            .variants
            .iter()
            .map(|v| names::type_ident(&v.name))
            .collect();
        let wires: Vec<_> = e
            .variants
            .iter()
            .map(|v| Literal::string(v.wire()))
            .collect();
        let decls = e.variants.iter().zip(&variants).map(|(v, ident)| {
            let docs = doc_attrs(&v.doc);
            let rename = (names::type_name(&v.name) != v.wire()).then(|| {
                let wire = Literal::string(v.wire());
                quote!(#[serde(rename = #wire)])
            });
            quote!(#docs #rename #ident,)
        });
        let count = Literal::usize_unsuffixed(e.variants.len());
        let result = self.std("Result");
        quote! {
            #docs
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, rt::serde::Serialize)]
            #[serde(crate = "rt::serde")]
            #user
            pub enum #ident {
                #(#decls)*
            }

            impl #ident {
                /// Every member, in declaration order.
                pub const ALL: [#ident; #count] = [#(#ident::#variants),*];
                /// The members' names on the wire, in declaration order.
                pub const NAMES: [&'static str; #count] = [#(#wires),*];

                /// The member's name on the wire.
                pub const fn as_str(self) -> &'static str {
                    match self {
                        #(#ident::#variants => #wires,)*
                    }
                }
            }

            impl ::core::fmt::Display for #ident {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    f.write_str(self.as_str())
                }
            }

            impl rt::Decode for #ident {
                fn read(r: &mut rt::Reader<'_>, path: &rt::Path<'_>) -> #result<Self, rt::ArgError> {
                    rt::args::enum_member(r, path, &Self::NAMES).map(|i| Self::ALL[i])
                }
            }
        }
    }
}
