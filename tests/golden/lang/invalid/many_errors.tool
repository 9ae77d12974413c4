// Several unrelated errors in one file: every one is reported, in source order.
package acme.many;

record Forecast {
    city: Strin,
    @range(0, 100) note: string,
    days: u8 = 300,
}

enum Units { celsius, celsius }

service Weather {
    @name("bad name") tool get_weather(city: string, city: string);
    @uri("w://{id}") resource info(key: string);
    tool t(m: map<i32, string>);
}
