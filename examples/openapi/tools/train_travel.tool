package train_travel;

@open
record Station {
    @description("Unique identifier for the station.\n\nExample: `efdbb9d1-02c2-4bc3-afb7-6788d8782b1e`.")
    id: uuid,
    @description("The name of the station\n\nExample: `Berlin Hauptbahnhof`.") name: string,
    @description("The address of the station.\n\nExample: `Invalidenstraße 10557 Berlin, Germany`.")
    address: string,
    @description("The country code of the station.\n\nExample: `DE`.") country_code: string,
    @description("The timezone of the station in the [IANA Time Zone Database format](https://www.iana.org/time-zones).\n\nExample: `Europe/Berlin`.")
    timezone?: string,
}

@open
record Links {
    @json_name("self") field?: uri,
    next?: uri,
    prev?: uri,
}

@open
record GetStationsResult {
    /// The wrapper for a collection is an array of objects.
    data?: list<Station>,
    /// A set of hypermedia links which serve as controls for the client.
    links?: Links,
}

@open
record Trip {
    @description("Unique identifier for the trip\n\nExample: `4f4e4e1-c824-4d63-b37a-d8d698862f1d`.")
    id?: uuid,
    @description("The starting station of the trip\n\nExample: `Berlin Hauptbahnhof`.")
    origin?: string,
    @description("The destination station of the trip\n\nExample: `Paris Gare du Nord`.")
    destination?: string,
    @description("The date and time when the trip departs\n\nExample: `2024-02-01T10:00:00Z`.")
    departure_time?: datetime,
    @description("The date and time when the trip arrives\n\nExample: `2024-02-01T16:00:00Z`.")
    arrival_time?: datetime,
    @description("The name of the operator of the trip\n\nExample: `Deutsche Bahn`.")
    operator?: string,
    @description("The cost of the trip\n\nExample: `50`.") price?: f64,
    /// Indicates whether bicycles are allowed on the trip
    bicycles_allowed?: bool,
    /// Indicates whether dogs are allowed on the trip
    dogs_allowed?: bool,
}

@open
record GetTripsResult {
    /// The wrapper for a collection is an array of objects.
    data?: list<Trip>,
    /// A set of hypermedia links which serve as controls for the client.
    links?: Links,
}

@open
record Booking {
    @description("Unique identifier for the booking\n\nExample: `3f3e3e1-c824-4d63-b37a-d8d698862f1d`.")
    id?: uuid,
    @description("Identifier of the booked trip\n\nExample: `4f4e4e1-c824-4d63-b37a-d8d698862f1d`.")
    trip_id?: uuid,
    @description("Name of the passenger\n\nExample: `John Doe`.") passenger_name?: string,
    /// Indicates whether the passenger has a bicycle.
    has_bicycle?: bool,
    /// Indicates whether the passenger has a dog.
    has_dog?: bool,
}

@open
record GetBookingsResult {
    /// The wrapper for a collection is an array of objects.
    data?: list<Booking>,
    /// A set of hypermedia links which serve as controls for the client.
    links?: Links,
}

@open
record LinksSelf {
    @json_name("self") field?: uri,
}

@open
record CreateBookingResult {
    @description("Unique identifier for the booking\n\nExample: `3f3e3e1-c824-4d63-b37a-d8d698862f1d`.")
    id?: uuid,
    @description("Identifier of the booked trip\n\nExample: `4f4e4e1-c824-4d63-b37a-d8d698862f1d`.")
    trip_id?: uuid,
    @description("Name of the passenger\n\nExample: `John Doe`.") passenger_name?: string,
    /// Indicates whether the passenger has a bicycle.
    has_bicycle?: bool,
    /// Indicates whether the passenger has a dog.
    has_dog?: bool,
    links?: LinksSelf,
}

enum Currency { bam, bgn, chf, eur, gbp, nok, sek, try }

enum Object { card }

@open
record SourceObject {
    object?: Object,
    @description("Cardholder's full name as it appears on the card.\n\nExample: `Francis Bourgeois`.")
    name: string,
    @description("The card number, as a string without any separators. On read all but the last four digits will be masked for security.\n\nExample: `4242424242424242`.")
    number: string,
    @description("Card security code, 3 or 4 digits usually found on the back of the card.\n\nExample: `123`.")
    cvc: integer,
    @description("Two-digit number representing the card's expiration month.\n\nExample: `12`.")
    exp_month: i64,
    @description("Four-digit number representing the card's expiration year.\n\nExample: `2025`.")
    exp_year: i64,
    address_line1?: string,
    address_line2?: string,
    address_city?: string,
    address_country: string,
    address_post_code?: string,
}

enum CreateBookingPaymentObject { bank_account }

enum AccountType { individual, company }

@open
record CreateBookingPaymentSourceObject {
    object?: CreateBookingPaymentObject,
    name: string,
    /// The account number for the bank account, in string form. Must be a current account.
    number: string,
    /// The sort code for the bank account, in string form. Must be a six-digit number.
    sort_code?: string,
    /// The type of entity that holds the account. This can be either `individual` or `company`.
    account_type: AccountType,
    @description("The name of the bank associated with the routing number.\n\nExample: `Starling Bank`.")
    bank_name: string,
    /// Two-letter country code (ISO 3166-1 alpha-2).
    country: string,
}

union Source {
    /// A card (debit or credit) to take payment from.
    object: SourceObject,
    /// A bank account to take payment from. Must be able to make payments in the currency specified in the payment.
    object2: CreateBookingPaymentSourceObject,
}

@open
record CreateBookingPaymentSourceObject2 {
    object?: Object,
    @description("Cardholder's full name as it appears on the card.\n\nExample: `Francis Bourgeois`.")
    name: string,
    @description("The card number, as a string without any separators. On read all but the last four digits will be masked for security.\n\nExample: `4242424242424242`.")
    number: string,
    @description("Two-digit number representing the card's expiration month.\n\nExample: `12`.")
    exp_month: i64,
    @description("Four-digit number representing the card's expiration year.\n\nExample: `2025`.")
    exp_year: i64,
    address_city?: string,
    address_country: string,
    address_post_code?: string,
}

union CreateBookingPaymentSource {
    /// A card (debit or credit) to take payment from.
    object: CreateBookingPaymentSourceObject2,
    /// A bank account to take payment from. Must be able to make payments in the currency specified in the payment.
    object2: CreateBookingPaymentSourceObject,
}

enum Status { pending, succeeded, failed }

@open
record LinksBooking {
    /// Example: `https://api.example.com/bookings/1725ff48-ab45-4bb5-9d02-88745177dedb`.
    booking?: uri,
}

@open
record CreateBookingPaymentResult {
    /// Unique identifier for the payment. This will be a unique identifier for the payment, and is used to reference the payment in other objects.
    id?: uuid,
    @description("Amount intended to be collected by this payment. A positive decimal figure describing the amount to be collected.\n\nExample: `49.99`.")
    @range(exclusive_min: 0)
    amount?: f64,
    /// Three-letter [ISO currency code](https://www.iso.org/iso-4217-currency-codes.html), in lowercase.
    currency?: Currency,
    /// The payment source to take the payment from. This can be a card or a bank account. Some of these properties will be hidden on read to protect PII leaking.
    source?: CreateBookingPaymentSource,
    /// The status of the payment, one of `pending`, `succeeded`, or `failed`.
    status?: Status,
    links?: LinksBooking,
}

service TrainTravel {
    /// Returns a list of all train stations in the system.
    @title("Get a list of train stations") @read_only @idempotent
    tool get_stations() -> GetStationsResult;

    /// Returns a list of available train trips between the specified origin and destination stations on the given date, and allows for filtering by bicycle and dog allowances.
    @title("Get available train trips") @read_only @idempotent
    tool get_trips(
        @description("The ID of the origin station\n\nExample: `efdbb9d1-02c2-4bc3-afb7-6788d8782b1e`.")
        origin: uuid,
        @description("The ID of the destination station\n\nExample: `b2e783e1-c824-4d63-b37a-d8d698862f1d`.")
        destination: uuid,
        @description("The date and time of the trip in ISO 8601 format in origin station's timezone.\n\nExample: `2024-02-01T09:00:00Z`.")
        date: datetime,
        /// Only return trips where bicycles are known to be allowed
        bicycles: bool = false,
        /// Only return trips where dogs are known to be allowed
        dogs: bool = false,
    ) -> GetTripsResult;

    /// Returns a list of all trips booking by the authenticated user.
    @title("List existing bookings") @read_only @idempotent
    tool get_bookings() -> GetBookingsResult;

    /// A booking is a temporary hold on a trip. It is not confirmed until the payment is processed.
    @title("Create a booking") @destructive(false)
    tool create_booking(
        @description("Identifier of the booked trip\n\nExample: `4f4e4e1-c824-4d63-b37a-d8d698862f1d`.")
        trip_id?: uuid,
        @description("Name of the passenger\n\nExample: `John Doe`.") passenger_name?: string,
        /// Indicates whether the passenger has a bicycle.
        has_bicycle?: bool,
        /// Indicates whether the passenger has a dog.
        has_dog?: bool,
    ) -> CreateBookingResult;

    /// Returns the details of a specific booking.
    @title("Get a booking") @read_only @idempotent @rename_all("camelCase")
    tool get_booking(
        @description("The ID of the booking to retrieve.\n\nExample: `1725ff48-ab45-4bb5-9d02-88745177dedb`.")
        booking_id: uuid,
    ) -> CreateBookingResult;

    /// Deletes a booking, cancelling the hold on the trip.
    @title("Delete a booking") @destructive @idempotent @rename_all("camelCase")
    tool delete_booking(
        @description("The ID of the booking to retrieve.\n\nExample: `1725ff48-ab45-4bb5-9d02-88745177dedb`.")
        booking_id: uuid,
    );

    /// A payment is an attempt to pay for the booking, which will confirm the booking for the user and enable them to get their tickets.
    @title("Pay for a Booking") @destructive(false) @rename_all("camelCase")
    tool create_booking_payment(
        @description("The ID of the booking to pay for.\n\nExample: `1725ff48-ab45-4bb5-9d02-88745177dedb`.")
        booking_id: uuid,
        @description("Amount intended to be collected by this payment. A positive decimal figure describing the amount to be collected.\n\nExample: `49.99`.")
        @range(exclusive_min: 0)
        amount?: f64,
        /// Three-letter [ISO currency code](https://www.iso.org/iso-4217-currency-codes.html), in lowercase.
        currency?: Currency,
        /// The payment source to take the payment from. This can be a card or a bank account. Some of these properties will be hidden on read to protect PII leaking.
        source?: Source,
    ) -> CreateBookingPaymentResult;
}
